package suitetest

import (
	"go/ast"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// TestStandardBodies: by default the standard library's function bodies
// are replaced, the module's kept, and every package, the standard
// library's included, type-checks without error and is analyzed; with
// StandardBodies the standard library's bodies are kept.
func TestStandardBodies(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module m\n\ngo 1.24\n",
		"p.go":   "package p\n\nimport \"strings\"\n\nfunc Twice(s string) string {\n\tx := strings.Repeat(s, 2)\n\treturn x\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// bodyLen returns the number of statements in the body of the
	// function name declared in pkg.
	bodyLen := func(pkg *packages.Package, name string) int {
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
	var mu sync.Mutex // the checker runs the analyzer on packages in parallel
	analyzed := map[string]bool{}
	count := &analysis.Analyzer{
		Name: "count",
		Doc:  "records the packages it runs on",
		// With a fact type the checker runs it on every dependency, as
		// slotlint's analyzers are run.
		FactTypes: []analysis.Fact{new(noFact)},
		Run: func(pass *analysis.Pass) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			analyzed[pass.Pkg.Path()] = true
			return nil, nil
		},
	}
	for _, keep := range []bool{false, true} {
		prog := Load(t, Config{Dir: dir, Patterns: []string{"."}, StandardBodies: keep})
		p := prog.Packages[0]
		std := p.Imports["strings"]
		if std == nil {
			t.Fatalf("strings is not among the imports of %s", p.PkgPath)
		}
		if n := bodyLen(p, "Twice"); n != 2 {
			t.Errorf("StandardBodies %v: the module's function has %d statements, want its 2", keep, n)
		}
		stdBody := bodyLen(std, "Repeat")
		if keep && stdBody < 2 {
			t.Errorf("StandardBodies true: strings.Repeat has %d statements, want its own", stdBody)
		}
		if !keep {
			if stdBody != 1 {
				t.Errorf("StandardBodies false: strings.Repeat has %d statements, want the one panic", stdBody)
			}
			if std.Types.Scope().Lookup("Repeat") == nil {
				t.Errorf("strings.Repeat is not declared once its body is dropped")
			}
		}
		clear(analyzed)
		Run(t, prog, count) // fails on an ill-typed package: analysis skipped
		for _, path := range []string{"m", "strings", "unicode/utf8"} {
			if !analyzed[path] {
				t.Errorf("StandardBodies %v: %s was not analyzed", keep, path)
			}
		}
	}
}

// noFact is a fact type never exported.
type noFact struct{}

func (*noFact) AFact() {}
