package pkgload

import (
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/tools/go/packages"
)

// writeModule writes the files (name -> text) into a new directory and
// returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func config(dir string) *packages.Config {
	return &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off"),
	}
}

// bodyLen returns the number of statements in the body of the function
// name declared in pkg.
func bodyLen(t *testing.T, pkg *packages.Package, name string) int {
	t.Helper()
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
				return len(fd.Body.List)
			}
		}
	}
	t.Fatalf("%s: no function %s", pkg.PkgPath, name)
	return 0
}

// TestDropsStandardBodiesOnly: the standard library's functions keep their
// declarations and lose their bodies, the module's keep theirs, and no
// package is left with an error or ill-typed (strings imports
// internal/bytealg and unicode/utf8 for its bodies alone).
func TestDropsStandardBodiesOnly(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod": "module m\n\ngo 1.24\n",
		"p.go":   "package p\n\nimport \"strings\"\n\nfunc Twice(s string) string {\n\tx := strings.Repeat(s, 2)\n\treturn x\n}\n",
	})
	pkgs, err := Load(config(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	p := pkgs[0]
	if n := bodyLen(t, p, "Twice"); n != 2 {
		t.Errorf("the module's function has %d statements, want its 2", n)
	}
	std := p.Imports["strings"]
	if std == nil {
		t.Fatalf("strings is not among the imports of %s", p.PkgPath)
	}
	if n := bodyLen(t, std, "Repeat"); n != 1 {
		t.Errorf("strings.Repeat has %d statements, want the one panic", n)
	}
	if std.Types.Scope().Lookup("Repeat") == nil {
		t.Errorf("strings.Repeat is not declared once its body is dropped")
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 || len(p.TypeErrors) > 0 || p.IllTyped {
			t.Errorf("%s: errors %v, type errors %v, ill-typed %v", p.PkgPath, p.Errors, p.TypeErrors, p.IllTyped)
		}
	})
}

// TestErrorsAsPackagesLoad: in a module that does not compile, every
// package has the errors, and is ill-typed or not, exactly as
// packages.Load leaves it: a module's unused import is an error (only the
// standard library's are forgiven), and an importer of a broken package
// is ill-typed.
func TestErrorsAsPackagesLoad(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":         "module m\n\ngo 1.24\n",
		"broken/b.go":    "package broken\n\nimport \"strings\"\n\nfunc F() int { return \"x\" }\n",
		"user/u.go":      "package user\n\nimport (\n\t\"fmt\"\n\n\t\"m/broken\"\n)\n\nfunc G() { fmt.Println(broken.F()) }\n",
		"clean/c.go":     "package clean\n\nimport \"encoding/json\"\n\nvar Valid = json.Valid\n",
		"missing/m.go":   "package missing\n\nimport \"m/nosuch\"\n\nvar X = nosuch.X\n",
		"syntax/s.go":    "package syntax\n\nfunc (\n",
		"generic/g.go":   "package generic\n\nimport \"slices\"\n\nfunc Max[T int | string](s []T) T { return slices.Max(s) }\n",
		"unsafeuse/u.go": "package unsafeuse\n\nimport \"unsafe\"\n\nvar N = unsafe.Sizeof(0)\n",
	})
	type state struct {
		errs     []string
		typeErrs int
		ill      bool
	}
	collect := func(pkgs []*packages.Package) map[string]state {
		out := map[string]state{}
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			var errs []string
			for _, e := range p.Errors {
				errs = append(errs, e.Error())
			}
			out[p.ID] = state{errs, len(p.TypeErrors), p.IllTyped}
		})
		return out
	}
	whole, err := packages.Load(config(dir), "./...")
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := Load(config(dir), "./...")
	if err != nil {
		t.Fatal(err)
	}
	want, got := collect(whole), collect(dropped)
	for id, w := range want {
		g, ok := got[id]
		switch {
		case !ok:
			t.Errorf("%s: not loaded", id)
		case !slices.Equal(g.errs, w.errs) || g.typeErrs != w.typeErrs || g.ill != w.ill:
			t.Errorf("%s: errors %q (%d type errors), ill-typed %v; packages.Load: %q (%d), %v", id, g.errs, g.typeErrs, g.ill, w.errs, w.typeErrs, w.ill)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d packages loaded, packages.Load loads %d", len(got), len(want))
	}
	// The comparison means something: the broken packages are broken.
	for _, id := range []string{"m/broken", "m/user", "m/missing", "m/syntax"} {
		if !want[id].ill {
			t.Errorf("%s is not ill-typed: %+v", id, want[id])
		}
	}
	for _, id := range []string{"m/clean", "m/generic", "m/unsafeuse", "encoding/json"} {
		if want[id].ill {
			t.Errorf("%s is ill-typed: %+v", id, want[id])
		}
	}
}

// TestCallersParseFile: a ParseFile of the config parses every file, and
// the standard library's bodies are dropped from what it returns.
func TestCallersParseFile(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod": "module m\n\ngo 1.24\n",
		"p.go":   "package p\n\nimport \"strings\"\n\nfunc Twice(s string) string {\n\tx := strings.Repeat(s, 2)\n\treturn x\n}\n",
	})
	var calls atomic.Int32
	cfg := config(dir)
	cfg.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		calls.Add(1)
		return withoutBodies(goDirs{goroot: "/nowhere"}, nil)(fset, filename, src)
	}
	parse := cfg.ParseFile
	pkgs, err := Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n < 3 { // p.go, strings' files and more
		t.Errorf("the config's ParseFile parsed %d files", n)
	}
	if n := bodyLen(t, pkgs[0].Imports["strings"], "Repeat"); n != 1 {
		t.Errorf("strings.Repeat has %d statements, want the one panic", n)
	}
	if reflect.ValueOf(cfg.ParseFile).Pointer() != reflect.ValueOf(parse).Pointer() {
		t.Error("Load changed the config's ParseFile")
	}
}

// TestDropsClientBodies: go-redis, a client library, loses its bodies and
// keeps its declarations; its dependency xxhash, in the module cache too
// but no client, and the runtime, which uses go-redis and is checked,
// keep theirs; nothing is left with an error.
func TestDropsClientBodies(t *testing.T) {
	pkgs, err := Load(config(filepath.Join("..", "..")), "./runtime")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		byPath[p.PkgPath] = p
		if len(p.Errors) > 0 || len(p.TypeErrors) > 0 || p.IllTyped {
			t.Errorf("%s: errors %v, type errors %v, ill-typed %v", p.PkgPath, p.Errors, p.TypeErrors, p.IllTyped)
		}
	})
	goredis, xxhash := byPath["github.com/redis/go-redis/v9"], byPath["github.com/cespare/xxhash/v2"]
	if goredis == nil || xxhash == nil || byPath["github.com/slotlint/slotlint/runtime"] == nil {
		t.Fatalf("go-redis, xxhash or the runtime not loaded: %d packages", len(byPath))
	}
	if n := bodyLen(t, goredis, "NewClient"); n != 1 {
		t.Errorf("redis.NewClient has %d statements, want the one panic", n)
	}
	if goredis.Types.Scope().Lookup("NewClient") == nil {
		t.Error("redis.NewClient is not declared once its body is dropped")
	}
	if n := bodyLen(t, xxhash, "Sum64String"); n < 1 || isPanicBody(t, xxhash, "Sum64String") {
		t.Errorf("xxhash.Sum64String lost its body (%d statements)", n)
	}
}

// isPanicBody tells whether the function name of pkg has panicBody's body.
func isPanicBody(t *testing.T, pkg *packages.Package, name string) bool {
	t.Helper()
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name && len(fd.Body.List) == 1 {
				es, ok := fd.Body.List[0].(*ast.ExprStmt)
				if !ok {
					return false
				}
				call, ok := es.X.(*ast.CallExpr)
				id, isIdent := call.Fun.(*ast.Ident)
				return ok && isIdent && id.Name == "panic" && id.NamePos == fd.Body.Lbrace
			}
		}
	}
	return false
}

func TestImportPath(t *testing.T) {
	d := goDirs{goroot: "/go", modcache: "/mod"}
	for file, want := range map[string]string{
		"/mod/github.com/redis/go-redis/v9@v9.23.0/redis.go":           "github.com/redis/go-redis/v9",
		"/mod/github.com/redis/go-redis/v9@v9.23.0/internal/pool/p.go": "github.com/redis/go-redis/v9/internal/pool",
		"/mod/github.com/!burnt!sushi/toml@v1.3.2/decode.go":           "github.com/BurntSushi/toml",
		"/mod/github.com/Bad/x@v1.0.0/x.go":                            "",
		"/mod/github.com/bad!/x@v1.0.0/x.go":                           "",
		"/mod/cache/download/github.com/redis/go-redis/v9/@v/list":     "",
		"/src/github.com/redis/go-redis/v9@v9.23.0/redis.go":           "",
		"/mod/../src/github.com/redis/go-redis/v9@v9.23.0/redis.go":    "",
	} {
		got, ok := d.importPath(file)
		if got != want || ok != (want != "") {
			t.Errorf("importPath(%s) = %q, %v; want %q", file, got, ok, want)
		}
	}
	for file, want := range map[string]bool{
		"/go/src/strings/strings.go":                               true,
		"/go/pkg/tool/x.go":                                        false,
		"/mod/github.com/redis/go-redis/v9@v9.23.0/redis.go":       true,
		"/mod/github.com/redis/rueidis@v1.0.0/rueidislock/lock.go": false,
		"/mod/github.com/slotlint/slotlint@v0.1.0/runtime/lock.go": false,
		"/mod/github.com/cespare/xxhash/v2@v2.3.0/xxhash.go":       false,
	} {
		if got := d.declarationsOnly(file); got != want {
			t.Errorf("declarationsOnly(%s) = %v, want %v", file, got, want)
		}
	}
}

// TestDropDefinitionsKeepsTypes: a file emptied by dropDefinitions declares
// the same objects with the same types as the whole file, and has lost
// what it should: bodies, table elements and function literals' bodies,
// but for the elements that give an array its length.
func TestDropDefinitionsKeepsTypes(t *testing.T) {
	const src = `package p

import (
	"strings"
	"unicode"
)

type Range struct{ Lo, Hi int }

var Table = &unicode.RangeTable{R16: []unicode.Range16{{0x41, 0x5a, 1}}}

var Ranges, Names = []Range{{1, 2}, {3, 4}}, map[string]int{"a": 1}

var Fixed = [...]string{"a", "b", strings.Repeat("c", 2)}

var Nested = [...]Range{{1, 2}, {Lo: 3}}

var Upper = func(s string) string { return strings.ToUpper(s) }

var Wrapped = wrap(Range{5, 6})

func wrap(r Range) []Range { return []Range{r} }

func (r Range) Len() int {
	if r.Hi < r.Lo {
		return 0
	}
	return r.Hi - r.Lo
}

const N = len(Fixed)
`
	check := func(drop bool) (*types.Package, *ast.File) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if drop {
			dropDefinitions(f)
		}
		conf := types.Config{Importer: importer.Default(), Error: func(err error) {
			if !unusedImport.MatchString(err.(types.Error).Msg) {
				t.Errorf("drop %v: %v", drop, err)
			}
		}}
		pkg, _ := conf.Check("p", fset, []*ast.File{f}, nil)
		return pkg, f
	}
	whole, _ := check(false)
	dropped, f := check(true)
	for _, name := range whole.Scope().Names() {
		w, d := whole.Scope().Lookup(name), dropped.Scope().Lookup(name)
		if d == nil || types.ObjectString(w, nil) != types.ObjectString(d, nil) {
			t.Errorf("%s: %v after dropping, %v before", name, d, w)
		}
	}
	if c := dropped.Scope().Lookup("N").(*types.Const); c.Val().String() != "3" {
		t.Errorf("N = %v after dropping, want 3", c.Val())
	}
	var out strings.Builder
	if err := format.Node(&out, token.NewFileSet(), f); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"0x41", `"a": 1`, "{1, 2}, {3, 4}", "ToUpper", "return 0", "Range{r}", "{5, 6}"} {
		if strings.Contains(out.String(), gone) {
			t.Errorf("%q is still in the dropped file:\n%s", gone, out.String())
		}
	}
	for _, kept := range []string{`[...]string{"a", "b", strings.Repeat("c", 2)}`, "[...]Range{{}, {}}", "wrap(Range{})"} {
		if !strings.Contains(out.String(), kept) {
			t.Errorf("%q is not in the dropped file:\n%s", kept, out.String())
		}
	}
}
