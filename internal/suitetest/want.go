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
)

// CheckWants checks the findings of analyzer a on the packages in the
// directories rels against their `// want` comments, in the syntax of
// golang.org/x/tools/go/analysis/analysistest (which cannot check packages
// it did not load itself): each finding of a must match one of the
// regular expressions of the comment on its line (or on the line +N below
// it, for `// want +N`), and every expression must be matched by one
// finding. Only Go files are read, and fact expectations (`name:"re"`)
// are refused: test facts with analysistest.Run.
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
			checkWants(t, pkg.Fset, pkg.Syntax, found)
		}
	}
}

type lineKey struct {
	file string
	line int
}

func checkWants(t testing.TB, fset *token.FileSet, files []*ast.File, found []Finding) {
	t.Helper()
	want := map[lineKey][]*regexp.Regexp{}
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
			delta, rxs, err := parseWant(rest)
			if err != nil {
				t.Errorf("%s: in 'want' comment: %v", posn, err)
				continue
			}
			if len(rxs) > 0 {
				k := lineKey{posn.Filename, posn.Line + delta}
				want[k] = append(want[k], rxs...)
			}
		}
	}
	for _, f := range found {
		k := lineKey{f.Posn.Filename, f.Posn.Line}
		rxs := want[k]
		i := slices.IndexFunc(rxs, func(rx *regexp.Regexp) bool { return rx.MatchString(f.Message) })
		switch {
		case i >= 0:
			want[k] = slices.Delete(rxs, i, i+1)
		case len(rxs) == 0:
			t.Errorf("%v: unexpected diagnostic: %v", f.Posn, f.Message)
		default:
			var pats []string
			for _, rx := range rxs {
				pats = append(pats, fmt.Sprintf("%#q", rx))
			}
			t.Errorf("%v: diagnostic %q does not match pattern %s", f.Posn, f.Message, strings.Join(pats, " or "))
		}
	}
	var surplus []string
	for k, rxs := range want {
		for _, rx := range rxs {
			surplus = append(surplus, fmt.Sprintf("%s:%d: no diagnostic was reported matching %#q", k.file, k.line, rx))
		}
	}
	slices.Sort(surplus)
	for _, s := range surplus {
		t.Error(s)
	}
}

// parseWant reads the rest of a want comment: an optional +N line offset
// and Go string literals, each a regular expression.
func parseWant(text string) (delta int, rxs []*regexp.Regexp, err error) {
	var scanErr string
	sc := new(scanner.Scanner).Init(strings.NewReader(text))
	sc.Error = func(_ *scanner.Scanner, msg string) { scanErr = msg }
	sc.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings | scanner.ScanInts
	for {
		switch tok := sc.Scan(); tok {
		case '+':
			if sc.Scan() != scanner.Int {
				return 0, nil, fmt.Errorf("got +%s, want +Int", sc.TokenText())
			}
			delta, _ = strconv.Atoi(sc.TokenText())
		case scanner.String, scanner.RawString:
			pattern, err := strconv.Unquote(sc.TokenText())
			if err != nil {
				return 0, nil, err
			}
			rx, err := regexp.Compile(pattern)
			if err != nil {
				return 0, nil, err
			}
			rxs = append(rxs, rx)
		case scanner.Ident:
			return 0, nil, fmt.Errorf("fact expectation %s: check facts with analysistest.Run", sc.TokenText())
		case scanner.EOF:
			if scanErr != "" {
				return 0, nil, fmt.Errorf("%s", scanErr)
			}
			return delta, rxs, nil
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
