package vetx

import (
	"bytes"
	"encoding/json"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/stdlib"
)

// TestStandardVetxKeepsExportedAPI builds the vetx files of standard
// packages and all their dependencies with the shortcut, from configs made
// as go vet makes them (go list gives the files and imports), each package
// importing its dependencies from the shortcut's own files, and checks
// that the types a package exports are its whole API as the compiler's
// export data has it. A package whose importers would see a different API
// through the shortcut fails here. (go vet itself runs the shortcut in the
// end-to-end tests.)
func TestStandardVetxKeepsExportedAPI(t *testing.T) {
	roots := []string{"context", "strconv", "net", "crypto/tls", "time", "sync/atomic", "runtime", "net/http"}
	vetx := map[string]string{}
	work := t.TempDir()
	for _, cfg := range standardVetConfigs(t, roots, vetx, work) {
		data, err := typesOnlyVetx(cfg)
		if err != nil {
			t.Fatalf("%s: the shortcut failed: %v", cfg.ImportPath, err)
		}
		if err := os.WriteFile(vetx[cfg.ImportPath], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range roots {
		got := vetxAPI(t, path, vetx[path])
		want := compilerAPI(t, path)
		if len(want) == 0 {
			t.Fatalf("%s: no exported API loaded", path)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the shortcut's exported API differs from the compiler's:\n%s", path, diffLines(want, got))
		}
	}
}

// standardVetConfigs returns the configs go vet would pass for the roots
// and their dependencies, in dependency order, as go list gives their files
// and imports. Each package's vetx file is to be written at vetx[path],
// under work, where its importers' configs point.
func standardVetConfigs(t testing.TB, roots []string, vetx map[string]string, work string) []*vetConfig {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json=ImportPath,Dir,GoFiles,Imports,ImportMap,Standard,Module"}, roots...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type listed struct {
		ImportPath, Dir string
		GoFiles         []string
		Imports         []string
		ImportMap       map[string]string
		Standard        bool
	}
	var cfgs []*vetConfig
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.ImportPath == "unsafe" {
			continue
		}
		cfg := &vetConfig{
			ImportPath:  p.ImportPath,
			GoVersion:   "go" + strings.TrimPrefix(runtime.Version(), "go"),
			ImportMap:   map[string]string{},
			PackageVetx: map[string]string{},
			VetxOnly:    true,
		}
		for _, f := range p.GoFiles {
			cfg.GoFiles = append(cfg.GoFiles, filepath.Join(p.Dir, f))
		}
		for _, imp := range p.Imports {
			cfg.ImportMap[imp] = imp
			cfg.PackageVetx[imp] = vetx[imp]
		}
		for from, to := range p.ImportMap {
			cfg.ImportMap[from] = to
		}
		if !stdlib.IsStandard(cfg.ImportPath, cfg.ModulePath) {
			t.Fatalf("%s is not standard by the shortcut's test", p.ImportPath)
		}
		vetx[p.ImportPath] = filepath.Join(work, strings.ReplaceAll(p.ImportPath, "/", "_")+".vetx")
		cfgs = append(cfgs, cfg)
	}
	return cfgs
}

// BenchmarkStandardVetx answers go vet's types-only requests for net/http
// and its standard-library dependencies (183 packages), one after
// another as go vet's processes would, without the process start.
func BenchmarkStandardVetx(b *testing.B) {
	vetx := map[string]string{}
	cfgs := standardVetConfigs(b, []string{"net/http"}, vetx, b.TempDir())
	b.ReportAllocs()
	for b.Loop() {
		for _, cfg := range cfgs {
			data, err := typesOnlyVetx(cfg)
			if err != nil {
				b.Fatalf("%s: %v", cfg.ImportPath, err)
			}
			if err := os.WriteFile(vetx[cfg.ImportPath], data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(cfgs)), "packages")
}

// vetxAPI decodes a vetx file's types and lists the exported objects.
func vetxAPI(t *testing.T, path, file string) []string {
	t.Helper()
	data, err := vetxTypes(file)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := gcexportdata.Read(bytes.NewReader(data), token.NewFileSet(), map[string]*types.Package{}, path)
	if err != nil {
		t.Fatalf("%s: decoding the shortcut's types: %v", path, err)
	}
	return api(pkg)
}

// compilerAPI lists the exported objects of path as the go command's
// export data has them.
func compilerAPI(t *testing.T, path string) []string {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, path)
	if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	return api(pkgs[0].Types)
}

func api(pkg *types.Package) []string {
	qual := func(p *types.Package) string { return p.Path() }
	var out []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		out = append(out, types.ObjectString(obj, qual))
		if tn, ok := obj.(*types.TypeName); ok {
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			for i := range ms.Len() {
				if f := ms.At(i).Obj(); f.Exported() {
					out = append(out, "  "+types.ObjectString(f, qual))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func diffLines(want, got []string) string {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, s := range want {
		if !g[s] {
			b.WriteString("- " + s + "\n")
		}
	}
	for _, s := range got {
		if !w[s] {
			b.WriteString("+ " + s + "\n")
		}
	}
	return b.String()
}

func TestReportsOnly(t *testing.T) {
	cfg := &vetConfig{}
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-json", "vet.cfg"}, true},
		{[]string{"-json", "-c=3", "-slotlint.strict", "vet.cfg"}, true},
		{[]string{"-fix", "vet.cfg"}, false},
		{[]string{"-fix", "-diff", "vet.cfg"}, false},
	} {
		if got := reportsOnly(c.args, cfg); got != c.want {
			t.Errorf("reportsOnly(%q) = %v, want %v", c.args, got, c.want)
		}
	}
	if reportsOnly([]string{"-json", "vet.cfg"}, &vetConfig{FixArchive: "fix.zip"}) {
		t.Error("reportsOnly with a fix archive to write")
	}
}

// TestPinnedToGoMod: the layout is written for the x/tools version go.mod
// requires; moving x/tools means checking the format again (the end-to-end
// go vet tests run it) and moving WrittenFor with it.
func TestPinnedToGoMod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	required := ""
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == toolsModule {
			required = f[1]
		}
	}
	if required != WrittenFor {
		t.Errorf("go.mod requires %s %q, the vetx layout is written for %q", toolsModule, required, WrittenFor)
	}
	// A test binary's build information lists no dependencies, so
	// whether a built slotlint links WrittenFor is checked on the binary
	// (cmd/slotlint's TestBinaryLinksVetxLayout).
}

// TestOtherToolsVersionFallsBack: a binary linked with any other x/tools
// (slotlint as a tool of a module that requires a newer one) does not
// write vetx files itself.
func TestOtherToolsVersionFallsBack(t *testing.T) {
	dep := func(m *debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/slotlint/slotlint"}, Deps: []*debug.Module{
			{Path: "github.com/redis/go-redis/v9", Version: WrittenFor}, m,
		}}
	}
	for _, tt := range []struct {
		name string
		bi   *debug.BuildInfo
		want bool
	}{
		{"the pinned version", dep(&debug.Module{Path: toolsModule, Version: WrittenFor}), true},
		{"an older version", dep(&debug.Module{Path: toolsModule, Version: "v0.49.0"}), false},
		{"a newer version", dep(&debug.Module{Path: toolsModule, Version: "v0.53.0"}), false},
		{"replaced by a directory", dep(&debug.Module{Path: toolsModule, Version: WrittenFor, Replace: &debug.Module{Path: "../tools"}}), false},
		{"replaced by the pinned version", dep(&debug.Module{Path: toolsModule, Version: "v0.49.0", Replace: &debug.Module{Path: "example.com/tools", Version: WrittenFor}}), true},
		{"not linked", &debug.BuildInfo{Main: debug.Module{Path: "github.com/slotlint/slotlint"}}, false},
	} {
		if got := formatMatches(tt.bi); got != tt.want {
			t.Errorf("%s: formatMatches = %v, want %v", tt.name, got, tt.want)
		}
	}
}
