package analyzer_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
)

// clientModuleDownloads remembers, per test module, the result of
// downloading its requirements, so each module is fetched once per run.
var clientModuleDownloads sync.Map // dir -> func() error

// clientModule returns the directory of the client test module name under
// testdata/clients, with its requirements in the module cache.
// analysistest loads packages with GOPROXY=off, so on a machine whose
// module cache has never seen rueidis or go-redis v8 the modules would
// not resolve; the main module's own requirements are fetched by go test.
func clientModule(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join("testdata", "clients", name)
	download, _ := clientModuleDownloads.LoadOrStore(dir, sync.OnceValue(func() error {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			return &downloadError{dir: dir, err: err, out: out}
		}
		return nil
	}))
	if err := download.(func() error)(); err != nil {
		t.Fatal(err)
	}
	return dir
}

type downloadError struct {
	dir string
	err error
	out []byte
}

func (e *downloadError) Error() string {
	return "go mod download in " + e.dir + ": " + e.err.Error() + "\n" + string(e.out)
}

// suiteIsSilent runs every analyzer of the suite over the packages of
// pattern in dir, loaded once, and fails on any finding or error: clean
// code must stay silent. (analysistest.Run per analyzer would load and
// type-check the client module from source once per analyzer.)
func suiteIsSilent(t *testing.T, dir, pattern string) {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading %s in %s", n, pattern, dir)
	}
	graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]bool{}
	for _, act := range graph.Roots {
		ran[act.Analyzer.Name] = true
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			t.Errorf("%s: unexpected %s finding: %s", act.Package.Fset.Position(d.Pos), d.Category, d.Message)
		}
	}
	for _, a := range analyzer.Analyzers() {
		if !ran[a.Name] {
			t.Errorf("analyzer %s did not run", a.Name)
		}
	}
}
