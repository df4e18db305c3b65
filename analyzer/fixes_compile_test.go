package analyzer_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// fixModules are the modules whose code carries the rules' cases: the
// analyzers' testdata, the example service and the end-to-end fixture.
var fixModules = []string{
	"testdata",
	filepath.Join("..", "examples", "shop"),
	filepath.Join("..", "testdata", "e2e"),
}

// TestSuggestedFixesCompile applies every suggested fix of every rule, one
// at a time, to every package of the modules with cases, and type-checks
// the package as fixed: a fix that leaves a variable unused, deletes a
// declaration still in use or breaks the syntax fails here. It runs with
// -slotlint.strict so that every rule reports.
func TestSuggestedFixesCompile(t *testing.T) {
	saved := config.Current
	t.Cleanup(func() { config.Current = saved })
	config.Current = config.Settings{Strict: true}
	checked := map[string]int{} // fixes per rule
	for _, dir := range fixModules {
		// The analyzers' test module as suitetest.Wants loads it, so the
		// tests of this binary share one load of it.
		prog := suitetest.Load(t, suitetest.Config{Dir: dir, Patterns: []string{"./..."}, Tests: dir == "testdata"})
		graph := suitetest.Run(t, prog, analyzer.Analyzers()...).Graph
		for _, act := range graph.Roots {
			for _, d := range act.Diagnostics {
				for _, fix := range d.SuggestedFixes {
					if err := fixCompiles(act.Package, fix); err != nil {
						t.Errorf("%s: %s fix %q: %v", act.Package.Fset.Position(d.Pos), d.Category, fix.Message, err)
					}
					checked[d.Category]++
				}
			}
		}
	}
	t.Logf("fixes checked by rule: %v", checked)
	// The rules that offer fixes today (SL1001: a runtime lock key; SL1002:
	// shared values; SL1301: a lock's TTL): a run that checks none of theirs
	// checks nothing.
	for _, id := range []string{"SL1001", "SL1002", "SL1301"} {
		if checked[id] == 0 {
			t.Errorf("no %s fix was checked: the cases lost their fixes, or the test its cases", id)
		}
	}
}

// fixCompiles applies one fix to its package's files and type-checks the
// package.
func fixCompiles(pkg *packages.Package, fix analysis.SuggestedFix) error {
	type edit struct {
		start, end int
		text       string
	}
	byFile := map[string][]edit{}
	for _, e := range fix.TextEdits {
		tf := pkg.Fset.File(e.Pos)
		if tf == nil {
			return fmt.Errorf("an edit outside any file")
		}
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		byFile[tf.Name()] = append(byFile[tf.Name()], edit{tf.Offset(e.Pos), tf.Offset(end), string(e.NewText)})
	}
	fset := token.NewFileSet()
	var files []*ast.File
	seen := 0
	for _, name := range pkg.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if edits, ok := byFile[name]; ok {
			seen++
			sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
			var out []byte
			at := 0
			for _, e := range edits {
				if e.start < at || e.end > len(src) {
					return fmt.Errorf("%s: overlapping or out-of-range edits", name)
				}
				out = append(append(out, src[at:e.start]...), e.text...)
				at = e.end
			}
			src = append(out, src[at:]...)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("the fixed file does not parse: %v", err)
		}
		files = append(files, f)
	}
	if seen != len(byFile) {
		return fmt.Errorf("the fix edits files outside package %s", pkg.PkgPath)
	}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if imp, ok := pkg.Imports[path]; ok {
			return imp.Types, nil
		}
		return nil, fmt.Errorf("%s is not imported by %s", path, pkg.PkgPath)
	})}
	if _, err := conf.Check(pkg.PkgPath, fset, files, nil); err != nil {
		return fmt.Errorf("the fixed package does not compile: %v", err)
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
