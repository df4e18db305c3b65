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
			checkWants(r, fset, []*ast.File{f}, tc.found, nil)
			if got, want := strings.Join(r.errs, "\n"), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("reported:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

const factSrc = `package p

func K(id string) string { return "k:" + id } // want K:"keyfunc" "and a finding"

func L() {} // want L:"keyfunc"
`

// TestCheckWantsFacts: facts are checked as findings are, by object name
// on the line of the object's declaration, the package's on line 1.
func TestCheckWantsFacts(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", factSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	posn := func(line int) token.Position { return token.Position{Filename: "p.go", Line: line} }
	finding := Finding{Posn: posn(3), Diagnostic: analysis.Diagnostic{Message: "and a finding"}}
	for _, tc := range []struct {
		name  string
		facts []factAt
		want  []string
	}{
		{"all met", []factAt{{posn(3), "K", "keyfunc(k)"}, {posn(5), "L", "keyfunc(l)"}}, nil},
		{"one missing", []factAt{{posn(3), "K", "keyfunc(k)"}}, []string{"p.go:5: no fact was reported matching `keyfunc`"}},
		{"wrong object", []factAt{{posn(3), "K", "keyfunc(k)"}, {posn(5), "M", "keyfunc(m)"}}, []string{
			"p.go:5: unexpected fact: keyfunc(m)",
			"p.go:5: no fact was reported matching `keyfunc`"}},
		{"no match", []factAt{{posn(3), "K", "other"}, {posn(5), "L", "keyfunc(l)"}}, []string{
			`p.go:3: fact "other" does not match pattern ` + "`keyfunc`",
			"p.go:3: no fact was reported matching `keyfunc`"}},
		{"package fact", []factAt{{posn(1), "package", "pkgfact"}, {posn(3), "K", "keyfunc(k)"}, {posn(5), "L", "keyfunc(l)"}}, []string{
			"p.go:1: unexpected fact: pkgfact"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			checkWants(r, fset, []*ast.File{f}, []Finding{finding}, tc.facts)
			if got, want := strings.Join(r.errs, "\n"), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("reported:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestParseWant(t *testing.T) {
	if _, _, err := parseWant(` "unclosed`); err == nil {
		t.Error("an unclosed string was accepted")
	}
	if _, _, err := parseWant(` keyFunc "builds"`); err == nil {
		t.Error("a fact expectation without ':' was accepted")
	}
	d, exps, err := parseWant(" +2 `a` keyFunc:\"b\" \"c\"")
	if err != nil || d != 2 || len(exps) != 3 {
		t.Fatalf("parseWant: %d %v %v", d, exps, err)
	}
	for i, want := range []expectation{{"diagnostic", "", nil}, {"fact", "keyFunc", nil}, {"diagnostic", "", nil}} {
		if exps[i].kind != want.kind || exps[i].name != want.name {
			t.Errorf("expectation %d: %s %q, want %s %q", i, exps[i].kind, exps[i].name, want.kind, want.name)
		}
	}
}
