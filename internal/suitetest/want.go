package suitetest

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/scanner"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// CheckWants checks the findings and facts of analyzer a on the packages
// in the directories rels against their `// want` comments, in the syntax
// of golang.org/x/tools/go/analysis/analysistest (which cannot check
// packages it did not load itself): each finding of a must match one of
// the regular expressions of the comment on its line (or on the line +N
// below it, for `// want +N`), each fact a exports for an object of the
// package must match an expectation `name:"re"` (name the object's) on the
// line of the object's declaration, and a package fact one named
// "package" on line 1; every expectation must be matched once. Only Go
// files are read.
func (r *Result) CheckWants(t testing.TB, a *analysis.Analyzer, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		pkgs := r.Program.inDir(rel)
		if len(pkgs) == 0 {
			t.Fatalf("no package in %s", rel)
		}
		for _, pkg := range pkgs {
			if pkgVariant(pkg) == "main" {
				continue
			}
			var found []Finding
			for _, f := range r.Findings {
				if f.Package == pkg && f.Analyzer == a {
					found = append(found, f)
				}
			}
			checkWants(t, pkg.Fset, pkg.Syntax, found, r.facts(a, pkg))
		}
	}
}

// factAt is one fact to check: where analysistest expects it, the name
// its expectation carries and its text.
type factAt struct {
	posn    token.Position
	name    string
	message string
}

// facts returns the facts a exported while analyzing pkg about pkg itself
// and its objects, as analysistest checks them.
func (r *Result) facts(a *analysis.Analyzer, pkg *packages.Package) []factAt {
	var out []factAt
	for _, act := range r.Graph.Roots {
		if act.Analyzer != a || act.Package != pkg {
			continue
		}
		for _, pf := range act.AllPackageFacts() {
			if pf.Package == pkg.Types && len(pkg.Syntax) > 0 {
				posn := pkg.Fset.Position(pkg.Syntax[0].Pos())
				posn.Line, posn.Column = 1, 1
				out = append(out, factAt{posn, "package", fmt.Sprint(pf)})
			}
		}
		objFacts := act.AllObjectFacts()
		slices.SortFunc(objFacts, func(x, y analysis.ObjectFact) int { return int(x.Object.Pos() - y.Object.Pos()) })
		for _, of := range objFacts {
			if of.Object.Pkg() == pkg.Types {
				out = append(out, factAt{pkg.Fset.Position(of.Object.Pos()), of.Object.Name(), fmt.Sprint(of.Fact)})
			}
		}
	}
	return out
}

type lineKey struct {
	file string
	line int
}

// expectation is one pattern of a want comment: a finding's ("diagnostic")
// or a fact's, of the object name (or "package").
type expectation struct {
	kind, name string
	rx         *regexp.Regexp
}

func checkWants(t testing.TB, fset *token.FileSet, files []*ast.File, found []Finding, facts []factAt) {
	t.Helper()
	want := map[lineKey][]expectation{}
	for _, f := range files {
		for _, c := range allComments(f) {
			text := strings.TrimPrefix(c.Text, "//")
			if text == c.Text {
				text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
			}
			// As in analysistest: "//...// want ..." is a want comment too.
			if i := strings.Index(text, "// want"); i >= 0 {
				text = text[i+len("// "):]
			}
			rest, ok := strings.CutPrefix(strings.TrimSpace(text), "want")
			if !ok {
				continue
			}
			posn := fset.Position(c.Pos())
			delta, exps, err := parseWant(rest)
			if err != nil {
				t.Errorf("%s: in 'want' comment: %v", posn, err)
				continue
			}
			if len(exps) > 0 {
				k := lineKey{posn.Filename, posn.Line + delta}
				want[k] = append(want[k], exps...)
			}
		}
	}
	check := func(posn token.Position, kind, name, message string) {
		k := lineKey{posn.Filename, posn.Line}
		exps := want[k]
		var unmatched []string
		for i, e := range exps {
			if e.kind != kind || e.name != name {
				continue
			}
			if e.rx.MatchString(message) {
				want[k] = slices.Delete(exps, i, i+1)
				return
			}
			unmatched = append(unmatched, fmt.Sprintf("%#q", e.rx))
		}
		if unmatched == nil {
			t.Errorf("%v: unexpected %s: %v", posn, kind, message)
		} else {
			t.Errorf("%v: %s %q does not match pattern %s", posn, kind, message, strings.Join(unmatched, " or "))
		}
	}
	for _, f := range found {
		check(f.Posn, "diagnostic", "", f.Message)
	}
	for _, f := range facts {
		check(f.posn, "fact", f.name, f.message)
	}
	var surplus []string
	for k, exps := range want {
		for _, e := range exps {
			surplus = append(surplus, fmt.Sprintf("%s:%d: no %s was reported matching %#q", k.file, k.line, e.kind, e.rx))
		}
	}
	slices.Sort(surplus)
	for _, s := range surplus {
		t.Error(s)
	}
}

// parseWant reads the rest of a want comment: an optional +N line offset,
// then Go string literals, each a regular expression a finding's message
// must match, and name:"re", a fact about the object name (or "package").
func parseWant(text string) (delta int, exps []expectation, err error) {
	var scanErr string
	sc := new(scanner.Scanner).Init(strings.NewReader(text))
	sc.Error = func(_ *scanner.Scanner, msg string) { scanErr = msg }
	sc.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings | scanner.ScanInts
	regexpOf := func(tok rune) (*regexp.Regexp, error) {
		if tok != scanner.String && tok != scanner.RawString {
			return nil, fmt.Errorf("got %s, want regular expression", scanner.TokenString(tok))
		}
		pattern, err := strconv.Unquote(sc.TokenText())
		if err != nil {
			return nil, err
		}
		return regexp.Compile(pattern)
	}
	for {
		switch tok := sc.Scan(); tok {
		case '+':
			if sc.Scan() != scanner.Int {
				return 0, nil, fmt.Errorf("got +%s, want +Int", sc.TokenText())
			}
			delta, _ = strconv.Atoi(sc.TokenText())
		case scanner.String, scanner.RawString:
			rx, err := regexpOf(tok)
			if err != nil {
				return 0, nil, err
			}
			exps = append(exps, expectation{"diagnostic", "", rx})
		case scanner.Ident:
			name := sc.TokenText()
			if tok := sc.Scan(); tok != ':' {
				return 0, nil, fmt.Errorf("got %s after %s, want ':'", scanner.TokenString(tok), name)
			}
			rx, err := regexpOf(sc.Scan())
			if err != nil {
				return 0, nil, err
			}
			exps = append(exps, expectation{"fact", name, rx})
		case scanner.EOF:
			if scanErr != "" {
				return 0, nil, fmt.Errorf("%s", scanErr)
			}
			return delta, exps, nil
		default:
			return 0, nil, fmt.Errorf("unexpected %s", scanner.TokenString(tok))
		}
	}
}

func allComments(f *ast.File) []*ast.Comment {
	var out []*ast.Comment
	for _, g := range f.Comments {
		out = append(out, g.List...)
	}
	return out
}
