package suitetest

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// WantsFixes is analysistest.RunWithSuggestedFixes(t, dir, a, rels...) on
// the shared load of Wants: it checks the `// want` comments as Wants
// does, then CheckFixes.
func WantsFixes(t testing.TB, dir string, a *analysis.Analyzer, rels ...string) *Result {
	t.Helper()
	res := Wants(t, dir, a, rels...)
	res.CheckFixes(t, a, rels...)
	return res
}

// CheckFixes applies every suggested fix of analyzer a on each package in
// the directories rels, one package (variant) at a time, and compares each
// edited file, gofmt-formatted, with the file of the same name plus
// ".golden", as analysistest.RunWithSuggestedFixes does for golden files
// that hold the whole fixed file. Identical edits of two fixes are applied
// once; overlapping different edits, an edited file without a golden file
// and a golden file beside no edited file fail the test.
func (r *Result) CheckFixes(t testing.TB, a *analysis.Analyzer, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		pkgs := r.Program.inDir(rel)
		if len(pkgs) == 0 {
			t.Fatalf("no package in %s", rel)
		}
		edited := map[string]bool{}
		for _, pkg := range pkgs {
			for file, edits := range r.fixEdits(a, pkg) {
				edited[file] = true
				checkFixedFile(t, file, edits)
			}
		}
		goldens, err := filepath.Glob(filepath.Join(r.Program.Dir, rel, "*.golden"))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range goldens {
			if file := g[:len(g)-len(".golden")]; !edited[file] {
				t.Errorf("%s: no suggested fix edits %s", g, filepath.Base(file))
			}
		}
	}
}

// edit is one text edit as byte offsets into its file.
type edit struct {
	start, end int
	text       string
}

// fixEdits returns the edits of every suggested fix of a's findings on
// pkg, by file name.
func (r *Result) fixEdits(a *analysis.Analyzer, pkg *packages.Package) map[string][]edit {
	out := map[string][]edit{}
	for _, f := range r.Findings {
		if f.Package != pkg || f.Analyzer != a {
			continue
		}
		for _, fix := range f.SuggestedFixes {
			for _, e := range fix.TextEdits {
				tf := pkg.Fset.File(e.Pos)
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				out[tf.Name()] = append(out[tf.Name()], edit{tf.Offset(e.Pos), tf.Offset(end), string(e.NewText)})
			}
		}
	}
	return out
}

// checkFixedFile applies edits to file and compares the result with
// file.golden, both gofmt-formatted.
func checkFixedFile(t testing.TB, file string, edits []edit) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := applyEdits(src, edits)
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return
	}
	got, err := format.Source(fixed)
	if err != nil {
		t.Errorf("%s: the fixed file does not parse: %v\n%s", file, err, fixed)
		return
	}
	golden, err := os.ReadFile(file + ".golden")
	if err != nil {
		t.Errorf("%s is edited by a fix: %v", file, err)
		return
	}
	want, err := format.Source(golden)
	if err != nil {
		t.Errorf("%s.golden: %v", file, err)
		return
	}
	if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
		t.Errorf("%s with its fixes applied differs from %s.golden:\n-- fixed --\n%s\n-- want --\n%s", file, filepath.Base(file), got, want)
	}
}

// applyEdits applies edits to src: identical edits once, overlapping
// different ones are an error.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(x, y edit) int {
		return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.end, y.end), cmp.Compare(x.text, y.text))
	})
	edits = slices.Compact(edits)
	var out []byte
	at := 0
	for i, e := range edits {
		if e.end < e.start || e.end > len(src) {
			return nil, fmt.Errorf("edit %d..%d %q is outside the file's %d bytes", e.start, e.end, e.text, len(src))
		}
		if e.start < at {
			p := edits[i-1]
			return nil, fmt.Errorf("fixes conflict: edit %d..%d %q overlaps %d..%d %q", e.start, e.end, e.text, p.start, p.end, p.text)
		}
		out = append(out, src[at:e.start]...)
		out = append(out, e.text...)
		at = e.end
	}
	return append(out, src[at:]...), nil
}
