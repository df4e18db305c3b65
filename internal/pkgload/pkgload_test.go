package pkgload

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
		return withoutBodies("/nowhere", nil)(fset, filename, src)
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
