package groundtruth

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/internal/suitetest"
)

const casesFile = "cases_test.go"

// labels reads each case's label from the first line of its comment.
func labels(t *testing.T, files []*ast.File, fset *token.FileSet) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range files {
		if !strings.HasSuffix(fset.File(f.Pos()).Name(), casesFile) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || cases[fd.Name.Name] == nil {
				continue
			}
			if fd.Doc == nil {
				t.Fatalf("case %s has no label comment", fd.Name.Name)
			}
			out[fd.Name.Name] = strings.Fields(fd.Doc.Text())[0]
		}
	}
	for name := range cases {
		if out[name] == "" {
			t.Fatalf("case %s not found in %s", name, casesFile)
		}
	}
	return out
}

// analyze runs the whole suite over this package's test variant and returns
// the slot rules reported inside each case function, with the labels.
func analyze(t *testing.T) (reported map[string][]string, label map[string]string) {
	t.Helper()
	prog := suitetest.Load(t, suitetest.Config{Dir: ".", Patterns: []string{"."}, Tests: true})
	test := prog.Package(t, ".", "test")
	label = labels(t, test.Syntax, test.Fset)
	res := suitetest.Run(t, prog, analyzer.Analyzers()...)
	return slotFindings(res.ByFunc(test), func(name string) bool { return cases[name] != nil }), label
}

// slotFindings returns the slot rules reported inside each function of
// byFunc that isCase accepts.
func slotFindings(byFunc map[string][]suitetest.Finding, isCase func(string) bool) map[string][]string {
	reported := map[string][]string{}
	for name, fs := range byFunc {
		for _, f := range fs {
			if isCase(name) && SlotRules[f.Category] {
				reported[name] = append(reported[name], f.Category)
			}
		}
	}
	return reported
}

// TestAnalyzerMatchesLabels: the analyzers report exactly each case's label.
func TestAnalyzerMatchesLabels(t *testing.T) {
	reported, label := analyze(t)
	for _, name := range sortedCases() {
		checkLabel(t, name, label[name], reported[name])
	}
}

// checkLabel: a case labelled clean has no slot finding, a case labelled
// with a rule exactly one, of that rule (Disagreement).
func checkLabel(t *testing.T, name, want string, got []string) {
	t.Helper()
	if d := Disagreement(want, got); d != "" {
		t.Errorf("%s %s", name, d)
	}
}

func sortedCases() []string {
	var names []string
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// isCrossSlot recognises Redis's CROSSSLOT error and go-redis's own
// refusal of a cluster WATCH over several slots.
func isCrossSlot(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "CROSSSLOT") ||
		strings.Contains(err.Error(), "Watch requires all keys to be in the same slot"))
}

// TestClusterMatchesLabels executes every case against the harness cluster,
// through a plain client of one master (commands arrive unrouted, as at a
// managed endpoint) and through the cluster client, for 200 inputs: inside
// MULTI a node answers MOVED for a key of another node before it can see the
// transaction spans slots, so only inputs whose keys all live on that node
// show CROSSSLOT there. A case labelled with a slot rule must fail with a
// cross-slot error on some input; a clean case must never
// fail with CROSSSLOT, and must succeed outright through the cluster client.
func TestClusterMatchesLabels(t *testing.T) {
	node := redistest.ClusterNode(t)
	cluster := redistest.Cluster(t)
	label := caseLabels(t)
	prefix := redistest.Prefix(t)
	ctx := context.Background()
	var inputs []string
	for i := range 200 {
		inputs = append(inputs, fmt.Sprintf("%s%d", prefix, i))
	}
	for _, name := range sortedCases() {
		fn, want := cases[name], label[name]
		t.Run(name, func(t *testing.T) {
			nodeCross, clusterCross := 0, 0
			for _, id := range inputs {
				nerr := fn(ctx, node, id)
				cerr := fn(ctx, cluster, id)
				if isCrossSlot(nerr) {
					nodeCross++
				}
				if isCrossSlot(cerr) {
					clusterCross++
				}
				if want == "clean" {
					if isCrossSlot(nerr) || isCrossSlot(cerr) {
						t.Fatalf("clean case failed with a cross-slot error for id %q: node: %v; cluster client: %v", id, nerr, cerr)
					}
					if cerr != nil {
						t.Fatalf("clean case failed through the cluster client for id %q: %v", id, cerr)
					}
				}
			}
			if want != "clean" {
				if nodeCross+clusterCross == 0 {
					t.Fatalf("labelled %s, but no input of %d failed with a cross-slot error", want, len(inputs))
				}
				t.Logf("%s: CROSSSLOT for %d/%d inputs on a node, %d/%d through the cluster client",
					want, nodeCross, len(inputs), clusterCross, len(inputs))
			}
		})
	}
}

// caseLabels reads the labels of the test variant of this package, from
// the load the analyzer tests share.
func caseLabels(t *testing.T) map[string]string {
	t.Helper()
	prog := suitetest.Load(t, suitetest.Config{Dir: ".", Patterns: []string{"."}, Tests: true})
	test := prog.Package(t, ".", "test")
	return labels(t, test.Syntax, test.Fset)
}
