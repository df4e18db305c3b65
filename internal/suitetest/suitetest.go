// Package suitetest is the one way slotlint's tests load Go packages, run
// analyzers over them and read the findings: Load type-checks packages and
// every dependency from source, as `slotlint ./...` does; Run analyzes them
// with golang.org/x/tools/go/analysis/checker; a Result answers which
// findings fall in which package or function, and checks `// want`
// comments in analysistest's syntax.
//
// Type-checking a client library and the standard library from source is
// most of a test's time (about 6 s of CPU for rueidis, 75% of it in
// go/types and go/parser), and analysistest.Run pays it again in every call.
// Load pays it once per test binary: the same directory, patterns and mode
// give the same packages, which the checker does not modify, so one load
// serves every analyzer and every test that reads the same module.
package suitetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/pkgload"
)

// Config says what to load.
type Config struct {
	// Dir is the directory the patterns are relative to. A directory with
	// its own go.mod other than the main module's is loaded as a module of
	// its own (GOWORK=off), with its requirements downloaded once per test
	// binary and GOPROXY=off afterwards.
	Dir string
	// Patterns are go list patterns, e.g. "./crossslot" or ".".
	Patterns []string
	// Tests adds the packages' test variants, as go vet and analysistest
	// do.
	Tests bool
	// Overlay maps absolute file paths to contents that replace or add
	// files (packages.Config.Overlay); a load with an overlay is not
	// shared with one without.
	Overlay map[string][]byte
	// StandardBodies loads every package whole. By default the standard
	// library and the client libraries' own packages are kept to their
	// declarations, as slotlint ./... loads them (internal/pkgload): the
	// rules find nothing there and record no facts for them (keyexpr's
	// TestStandardLibraryExportsNoFacts), while type-checking their bodies
	// was most of every load. Their declarations, all that their
	// importers' types need, are kept.
	StandardBodies bool
}

func (c Config) key() string {
	var files []string
	for name, data := range c.Overlay {
		files = append(files, name+"\x00"+string(data))
	}
	slices.Sort(files)
	return fmt.Sprintf("%q %q %v %v %q", c.Dir, c.Patterns, c.Tests, c.StandardBodies, files)
}

// Program is a set of loaded packages.
type Program struct {
	// Dir is the absolute directory the patterns were relative to.
	Dir string
	// Packages are the packages that matched the patterns (with their
	// test variants when Config.Tests is set); their dependencies hang
	// off Imports.
	Packages []*packages.Package
}

type loaded struct {
	prog *Program
	err  error
}

// cache holds every load of the test binary: key -> func() loaded.
var cache sync.Map

// downloads holds the module downloads of the test binary: dir -> func() error.
var downloads sync.Map

// Load loads cfg's packages with syntax and types for them and every
// dependency, or returns the packages an earlier call with the same cfg
// loaded. A package or type error fails the test: an analyzer run over
// broken code tests nothing.
func Load(t testing.TB, cfg Config) *Program {
	t.Helper()
	once, _ := cache.LoadOrStore(cfg.key(), sync.OnceValue(func() loaded {
		prog, err := load(cfg)
		return loaded{prog, err}
	}))
	l := once.(func() loaded)()
	if l.err != nil {
		t.Fatal(l.err)
	}
	return l.prog
}

func load(cfg Config) (*Program, error) {
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if own, err := ownModule(dir); err != nil {
		return nil, err
	} else if own {
		// analysistest and slotlint's tests load test modules with
		// GOPROXY=off, so their requirements must be in the module cache
		// first: go test fetches only the main module's.
		if err := download(dir); err != nil {
			return nil, err
		}
		env = append(env, "GOPROXY=off")
	}
	pcfg := &packages.Config{
		Mode:    packages.LoadAllSyntax | packages.NeedModule,
		Dir:     dir,
		Tests:   cfg.Tests,
		Env:     env,
		Overlay: cfg.Overlay,
	}
	load := pkgload.Load // as slotlint ./... loads
	if cfg.StandardBodies {
		load = packages.Load
	}
	pkgs, err := load(pcfg, cfg.Patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s in %s: %v", cfg.Patterns, dir, err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s in %s", cfg.Patterns, dir)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s in %s: %d errors:\n%s", cfg.Patterns, dir, len(errs), strings.Join(errs, "\n"))
	}
	return &Program{Dir: dir, Packages: pkgs}, nil
}

// ownModule reports whether dir holds a go.mod of its own; the main
// module's directory counts as not: go test has its requirements.
func ownModule(dir string) (bool, error) {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return false, nil
	}
	cmd := exec.Command("go", "env", "GOMOD")
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))) != dir, nil
}

func download(dir string) error {
	once, _ := downloads.LoadOrStore(dir, sync.OnceValue(func() error {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
		}
		return nil
	}))
	return once.(func() error)()
}

// Package returns the package of the program in the directory rel
// (relative to Config.Dir, e.g. "./crossslot"), or with tests its variant
// named by suffix: "" for the package itself, "test" for the package
// compiled with its tests, "xtest" for its external test package.
func (p *Program) Package(t testing.TB, rel, variant string) *packages.Package {
	t.Helper()
	for _, pkg := range p.inDir(rel) {
		if pkgVariant(pkg) == variant {
			return pkg
		}
	}
	t.Fatalf("no package in %s (variant %q) among the %d loaded from %s", rel, variant, len(p.Packages), p.Dir)
	return nil
}

// inDir returns the loaded packages whose files are in the directory rel.
func (p *Program) inDir(rel string) []*packages.Package {
	want := filepath.Join(p.Dir, rel)
	var out []*packages.Package
	for _, pkg := range p.Packages {
		if len(pkg.GoFiles) > 0 && filepath.Dir(pkg.GoFiles[0]) == want {
			out = append(out, pkg)
		}
	}
	return out
}

// pkgVariant tells a package ("") from its variant compiled with its tests
// ("test") and its external test package ("xtest"); the test main package
// is "main".
func pkgVariant(pkg *packages.Package) string {
	switch {
	case strings.HasSuffix(pkg.PkgPath, ".test"):
		return "main"
	case strings.HasSuffix(pkg.ID, ".test]") && strings.HasSuffix(pkg.PkgPath, "_test"):
		return "xtest"
	case strings.HasSuffix(pkg.ID, ".test]"):
		return "test"
	}
	return ""
}
