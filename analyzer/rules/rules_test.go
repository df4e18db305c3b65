package rules_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// TestCatalogue: every rule is documented, has a well-formed stable ID and
// belongs to an analyzer of the suite whose Doc names it.
func TestCatalogue(t *testing.T) {
	docs := map[string]string{}
	for _, a := range analyzer.Analyzers() {
		docs[a.Name] = a.Doc
	}
	id := regexp.MustCompile(`^SL[0-9]{4}$`)
	seen := map[string]bool{}
	for _, r := range rules.All() {
		if !id.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("bad or duplicate ID %q", r.ID)
		}
		seen[r.ID] = true
		for name, v := range map[string]string{"Title": r.Title, "What": r.What, "Why": r.Why, "Bad": r.Bad, "Good": r.Good, "Fix": r.Fix} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s has no %s", r.ID, name)
			}
		}
		doc, ok := docs[r.Analyzer]
		if !ok {
			t.Errorf("%s: analyzer %q is not in the suite", r.ID, r.Analyzer)
		} else if !strings.Contains(doc, r.ID) {
			t.Errorf("%s: the Doc of analyzer %s does not name it", r.ID, r.Analyzer)
		}
		if got, ok := rules.Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%s) = %v, %v", r.ID, got, ok)
		}
	}
}

// TestRulesNamedByConstant: outside this package, analyzer code names a Go
// rule by its constant here, never by its ID's text, and every analyzer
// takes its Doc from its package's doc.go (analyzerdoc.MustExtract), so
// the text a user reads and the text pkg.go.dev shows are one.
func TestRulesNamedByConstant(t *testing.T) {
	id := regexp.MustCompile(`^"SL[0-9]{4}"$`)
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || path == "../rules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && id.MatchString(n.Value) {
					t.Errorf("%s: rule %s written as text: use its constant in package rules", fset.Position(n.Pos()), n.Value)
				}
			case *ast.CompositeLit:
				if sel, ok := n.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Analyzer" {
					return true
				}
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok || fmt.Sprint(kv.Key) != "Doc" {
						continue
					}
					call, ok := kv.Value.(*ast.CallExpr)
					sel, ok2 := func() (*ast.SelectorExpr, bool) {
						if !ok {
							return nil, false
						}
						s, ok := call.Fun.(*ast.SelectorExpr)
						return s, ok
					}()
					if !ok2 || fmt.Sprint(sel.X) != "analyzerdoc" || sel.Sel.Name != "MustExtract" {
						t.Errorf("%s: an analyzer's Doc is not taken from its doc.go with analyzerdoc.MustExtract", fset.Position(kv.Pos()))
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
