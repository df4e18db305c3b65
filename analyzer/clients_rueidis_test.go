package analyzer_test

import (
	"bytes"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// TestRueidis runs the rules over code written against rueidis v1.0.79
// (a module of its own under testdata/clients/rueidis).
func TestRueidis(t *testing.T) {
	dir := filepath.Join("testdata", "clients", "rueidis")
	analysistest.Run(t, dir, crossslot.Analyzer, "./crossslot")
	analysistest.Run(t, dir, txslot.Analyzer, "./txslot")
	analysistest.Run(t, dir, scriptkeys.Analyzer, "./scripts")
	analysistest.Run(t, dir, luascript.Analyzer, "./lua")
	// rueidiscompat is read as go-redis.
	analysistest.Run(t, dir, crossslot.Analyzer, "./compat")
	analysistest.Run(t, dir, txslot.Analyzer, "./compattx")
	// Clean code: no analyzer of the suite reports anything.
	for _, a := range analyzer.Analyzers() {
		analysistest.Run(t, dir, a, "./clean")
	}
}

// rueidisGroundTruth is the package of executable rueidis cases, labelled
// with the rule the analyzer must report in each (or clean).
const rueidisGroundTruth = "./groundtruth"

// TestRueidisGroundTruthLabels: the suite reports exactly each case's
// label in the case's function.
func TestRueidisGroundTruthLabels(t *testing.T) {
	checkGroundTruthLabels(t, filepath.Join("testdata", "clients", "rueidis"))
}

// TestRueidisGroundTruthCluster runs the cases against the harness cluster.
func TestRueidisGroundTruthCluster(t *testing.T) {
	runGroundTruthCluster(t, filepath.Join("testdata", "clients", "rueidis"))
}

// checkGroundTruthLabels runs the suite over the ground-truth cases of the
// client test module in dir.
func checkGroundTruthLabels(t *testing.T, dir string) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir,
		Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=")}
	pkgs, err := packages.Load(cfg, rueidisGroundTruth)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the cases: %v %v", err, pkgs)
	}
	pkg := pkgs[0]
	type span struct{ from, to token.Pos }
	cases := map[string]span{}
	label := map[string]string{}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			if l := strings.Fields(fd.Doc.Text())[0]; l == "clean" || strings.HasPrefix(l, "SL") {
				cases[fd.Name.Name] = span{fd.Pos(), fd.End()}
				label[fd.Name.Name] = l
			}
		}
	}
	if len(cases) < 20 {
		t.Fatalf("only %d labelled cases", len(cases))
	}
	g, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string][]string{}
	for act := range g.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			if !strings.HasPrefix(d.Category, "SL100") || d.Category > "SL1004" {
				continue
			}
			for name, s := range cases {
				if s.from <= d.Pos && d.Pos < s.to {
					reported[name] = append(reported[name], d.Category)
				}
			}
		}
	}
	for name, want := range label {
		got := reported[name]
		switch {
		case want == "clean" && len(got) > 0:
			t.Errorf("%s is labelled clean but the analyzer reports %v", name, got)
		case want != "clean" && (len(got) != 1 || got[0] != want):
			t.Errorf("%s is labelled %s but the analyzer reports %v", name, want, got)
		}
	}
}

// runGroundTruthCluster runs the cases' own test, in their module in dir,
// against the harness cluster: each labelled case must meet a cross-slot
// error for some input, each clean one never. The harness's environment
// (and CI, under which a missing server fails) passes through.
func runGroundTruthCluster(t *testing.T, dir string) {
	if os.Getenv("SLOTLINT_REDIS_CLUSTER_ADDRS") == "" && os.Getenv("CI") != "true" {
		t.Skip("SLOTLINT_REDIS_CLUSTER_ADDRS is not set: run under scripts/redis-test-env")
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", rueidisGroundTruth)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the ground-truth cases failed: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestClusterMatchesLabels")) {
		t.Fatalf("the ground-truth test did not run against the cluster:\n%s", out)
	}
	t.Logf("%s", out)
}
