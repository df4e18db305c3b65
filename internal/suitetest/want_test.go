package suitetest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// recorder collects what a check reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const wantSrc = `package p

func f() {
	a() // want "MGET keys" ` + "`share no`" + `
	b() // want +1 "on the next line"
	c()
	d() /* want "in a block comment" */
	e() // a note // want "after a note"
	g()
}
`

// TestCheckWants: every expectation must be met by one finding and every
// finding must be expected, as in analysistest.
func TestCheckWants(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", wantSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int, msg string) Finding {
		return Finding{Posn: token.Position{Filename: "p.go", Line: line}, Diagnostic: analysis.Diagnostic{Message: msg}}
	}
	all := []Finding{
		at(4, `MGET keys "a" and "b"`), at(4, "keys share no hash tag"),
		at(6, "reported on the next line"),
		at(7, "reported in a block comment"),
		at(8, "reported after a note"),
	}
	for _, tc := range []struct {
		name  string
		found []Finding
		want  []string
	}{
		{"all met", all, nil},
		{"one missing", all[1:], []string{"p.go:4: no diagnostic was reported matching `MGET keys`"}},
		{"one unexpected", append(all[:5:5], at(9, "surprise")), []string{"p.go:9: unexpected diagnostic: surprise"}},
		{"no match", append([]Finding{at(7, "other text")}, all[:3]...), []string{
			`p.go:7: diagnostic "other text" does not match pattern ` + "`in a block comment`",
			"p.go:7: no diagnostic was reported matching `in a block comment`",
			"p.go:8: no diagnostic was reported matching `after a note`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			checkWants(r, fset, []*ast.File{f}, tc.found)
			if got, want := strings.Join(r.errs, "\n"), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("reported:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestParseWantRefusesFacts(t *testing.T) {
	if _, _, err := parseWant(` keyFunc:"builds"`); err == nil {
		t.Error("a fact expectation was accepted")
	}
	if _, _, err := parseWant(` "unclosed`); err == nil {
		t.Error("an unclosed string was accepted")
	}
	d, rxs, err := parseWant(" +2 `a` \"b\"")
	if err != nil || d != 2 || len(rxs) != 2 {
		t.Errorf("parseWant: %d %v %v", d, rxs, err)
	}
}
