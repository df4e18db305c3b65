package main

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
)

// fileEdit replaces bytes [start, end) of a file by text.
type fileEdit struct {
	start, end int
	text       string
}

func (e fileEdit) overlaps(o fileEdit) bool {
	if e.start == e.end && o.start == o.end {
		return e.start == o.start // two insertions at one place: order unknown
	}
	return e.start < o.end && o.start < e.end || e.start == o.start
}

// fixPlan is the suggested fixes of a run, merged: the first fix of each
// finding, once (a package and its test variant report the same), and
// none that overlaps a fix taken before it.
type fixPlan struct {
	edits    map[string][]fileEdit // by file name
	applied  int
	conflict int
}

// planFixes merges the suggested fixes of the root actions' findings.
func planFixes(graph *checker.Graph) (*fixPlan, error) {
	plan := &fixPlan{edits: map[string][]fileEdit{}}
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			byFile := map[string][]fileEdit{}
			var key strings.Builder
			for _, e := range d.SuggestedFixes[0].TextEdits {
				tf := fset.File(e.Pos)
				if tf == nil {
					return nil, fmt.Errorf("%s: a suggested fix edits no known file", fset.Position(d.Pos))
				}
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				fe := fileEdit{start: tf.Offset(e.Pos), end: tf.Offset(end), text: string(e.NewText)}
				byFile[tf.Name()] = append(byFile[tf.Name()], fe)
				fmt.Fprintf(&key, "%s:%d:%d:%q;", tf.Name(), fe.start, fe.end, fe.text)
			}
			if seen[key.String()] {
				continue
			}
			seen[key.String()] = true
			if plan.conflicts(byFile) {
				plan.conflict++
				continue
			}
			for name, edits := range byFile {
				plan.edits[name] = append(plan.edits[name], edits...)
			}
			plan.applied++
		}
	}
	return plan, nil
}

func (p *fixPlan) conflicts(byFile map[string][]fileEdit) bool {
	for name, edits := range byFile {
		for _, e := range edits {
			for _, taken := range p.edits[name] {
				if e.overlaps(taken) {
					return true
				}
			}
		}
	}
	return false
}

// files returns the edited files, sorted.
func (p *fixPlan) files() []string {
	var names []string
	for name := range p.edits {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// apply returns a file's text with its edits made, gofmt-ed when the
// result parses.
func apply(src []byte, edits []fileEdit) ([]byte, error) {
	sorted := append([]fileEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].start < sorted[j].start })
	var out bytes.Buffer
	at := 0
	for _, e := range sorted {
		if e.start < at || e.end > len(src) || e.start > e.end {
			return nil, fmt.Errorf("edit [%d,%d) outside the file or overlapping another", e.start, e.end)
		}
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	if formatted, err := format.Source(out.Bytes()); err == nil {
		return formatted, nil
	}
	return out.Bytes(), nil
}

// applyFixes writes the merged fixes to the files (write) or prints them
// as a unified diff, and says on stderr how many fixes went into which
// files, and how many were left out because they overlap another.
func applyFixes(graph *checker.Graph, write bool, stdout, stderr io.Writer) error {
	plan, err := planFixes(graph)
	if err != nil {
		return err
	}
	names := plan.files()
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		fixed, err := apply(src, plan.edits[name])
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if !write {
			io.WriteString(stdout, unifiedDiff(name, string(src), string(fixed)))
			continue
		}
		info, err := os.Stat(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(name, fixed, info.Mode().Perm()); err != nil {
			return err
		}
	}
	verb := "applied"
	if !write {
		verb = "would apply (-diff: no file changed)"
	}
	fmt.Fprintf(stderr, "slotlint: %s %s in %s%s\n", verb, plural(plan.applied, "fix", "fixes"), plural(len(names), "file", "files"), fileList(names))
	if plan.conflict > 0 {
		fmt.Fprintf(stderr, "slotlint: %s not applied: they overlap another fix; run slotlint -fix again\n", plural(plan.conflict, "fix", "fixes"))
	}
	return nil
}

func fileList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
