package directives

import (
	_ "embed"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
)

// Analyzer hands the rule analyzers a package's directives as its Result.
var Analyzer = &analysis.Analyzer{
	Name:       "slotlintdirectives",
	Doc:        analyzerdoc.MustExtract(doc, "slotlintdirectives"),
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

// Prefix starts a suppression comment.
const Prefix = "//slotlint:ignore"

// Malformed is a suppression comment without a reason: it suppresses
// nothing and is itself reported, under each rule it names.
type Malformed struct {
	Comment *ast.Comment
	IDs     []string
}

// lineKey identifies one line of one file, as token.Position names it.
type lineKey struct {
	file string
	line int
}

// Result is a package's directives.
type Result struct {
	fset  *token.FileSet
	files []*ast.File

	once      sync.Once // rule analyzers of one package may ask at once
	generated map[string]bool
	ignores   map[lineKey][][]string
	malformed []Malformed
}

func run(pass *analysis.Pass) (any, error) {
	return &Result{fset: pass.Fset, files: pass.Files}, nil
}

func (r *Result) scan() {
	r.once.Do(func() {
		r.generated, r.ignores = map[string]bool{}, map[lineKey][][]string{}
		for _, f := range r.files {
			if ast.IsGenerated(f) {
				r.generated[r.fset.File(f.Pos()).Name()] = true
				continue
			}
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					ids, reason, ok := parse(c.Text)
					switch {
					case !ok:
					case reason == "":
						r.malformed = append(r.malformed, Malformed{Comment: c, IDs: ids})
					default:
						p := r.fset.Position(c.Pos())
						k := lineKey{p.Filename, p.Line}
						r.ignores[k] = append(r.ignores[k], ids)
					}
				}
			}
		}
	})
}

// Generated reports whether pos is in a generated file: no rule reports
// there.
func (r *Result) Generated(pos token.Pos) bool {
	r.scan()
	return r.generated[r.fset.Position(pos).Filename]
}

// Suppressed reports whether a suppression with a reason for rule id is on
// the line of pos or the line above.
func (r *Result) Suppressed(id string, pos token.Pos) bool {
	r.scan()
	p := r.fset.Position(pos)
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, ids := range r.ignores[lineKey{p.Filename, line}] {
			for _, x := range ids {
				if x == id {
					return true
				}
			}
		}
	}
	return false
}

// Malformed returns the suppressions without a reason, in the order of
// the files and their comments.
func (r *Result) Malformed() []Malformed {
	r.scan()
	return r.malformed
}

// parse reads "//slotlint:ignore SL1002[,SL1003] reason...": the IDs, upper
// case, and the reason, empty when there is none.
func parse(text string) (ids []string, reason string, ok bool) {
	text, ok = strings.CutPrefix(text, Prefix)
	if !ok || (text != "" && text[0] != ' ' && text[0] != '\t') {
		return nil, "", false
	}
	// A comment after the directive is not its reason.
	if i := strings.Index(text, "//"); i >= 0 {
		text = text[:i]
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil, "", false
	}
	for _, id := range strings.Split(fields[0], ",") {
		if id != "" {
			ids = append(ids, strings.ToUpper(id))
		}
	}
	return ids, strings.Join(fields[1:], " "), true
}
