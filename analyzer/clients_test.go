package analyzer_test

import (
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/groundtruth"
	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// clientCase is one rule's `// want` cases in a client test module.
type clientCase struct {
	analyzer *analysis.Analyzer
	dirs     []string
}

// clientSuites are the test modules under testdata/clients, each pinned to
// one client library so the main module depends on none of them: for each,
// the rules' cases (checked against their `// want` comments) and clean
// code on which no analyzer of the suite may report.
var clientSuites = []struct {
	module string
	cases  []clientCase
	clean  string
}{
	{
		// go-redis v8.11.5: the v9 API under another import path.
		module: "goredisv8",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot"}},
			{txslot.Analyzer, []string{"./txslot"}},
			{scriptkeys.Analyzer, []string{"./scriptkeys"}},
			{luascript.Analyzer, []string{"./luascript"}},
		},
		clean: "./clean",
	},
	{
		// redigo command lines, transactions and scripts; the clean code
		// has pipelines, other connections, commands after EXEC and shared
		// tags.
		module: "redigo",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot"}},
			{txslot.Analyzer, []string{"./txslot"}},
			{scriptkeys.Analyzer, []string{"./scriptkeys"}},
			{luascript.Analyzer, []string{"./luascript"}},
			{lockcheck.Analyzer, []string{"./lockcheck"}},
		},
		clean: "./clean",
	},
	{
		// rueidis v1.0.79; compat and compattx use rueidiscompat, read as
		// go-redis.
		module: "rueidis",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot", "./compat"}},
			{txslot.Analyzer, []string{"./txslot", "./compattx"}},
			{scriptkeys.Analyzer, []string{"./scripts"}},
			{luascript.Analyzer, []string{"./lua"}},
			{lockcheck.Analyzer, []string{"./lockcheck"}},
		},
		clean: "./clean",
	},
	{
		// valkey-go v1.0.79, which shares rueidis's front end.
		module: "valkey",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot"}},
			{txslot.Analyzer, []string{"./txslot"}},
			{scriptkeys.Analyzer, []string{"./scripts"}},
			{luascript.Analyzer, []string{"./lua"}},
			{lockcheck.Analyzer, []string{"./lockcheck"}},
		},
		clean: "./clean",
	},
}

// TestClients runs the whole suite once over each client test module,
// loaded once, and checks each rule's cases, the clean code and the
// labels of the module's ground-truth cases (whose cluster test
// groundtruth's TestClientCasesOnCluster runs). (One analysistest.Run per
// rule, or a load of the ground truth of its own, would type-check the
// client library and the standard library from source again.)
func TestClients(t *testing.T) {
	for _, s := range clientSuites {
		t.Run(s.module, func(t *testing.T) {
			patterns := []string{s.clean, groundTruth}
			for _, c := range s.cases {
				patterns = append(patterns, c.dirs...)
			}
			slices.Sort(patterns)
			dir, err := filepath.Abs(filepath.Join("testdata", "clients", s.module))
			if err != nil {
				t.Fatal(err)
			}
			prog := suitetest.Load(t, suitetest.Config{
				Dir:      dir,
				Patterns: patterns,
				Overlay:  groundTruthOverlay(t, dir),
			})
			res := suitetest.Run(t, prog, analyzer.Analyzers()...)
			for _, c := range s.cases {
				t.Run(c.analyzer.Name, func(t *testing.T) {
					res.CheckWants(t, c.analyzer, c.dirs...)
				})
			}
			t.Run("clean", func(t *testing.T) {
				res.Silent(t, s.clean)
			})
			t.Run("groundtruth", func(t *testing.T) {
				checkGroundTruth(t, res, prog.Package(t, groundTruth, ""))
			})
		})
	}
}

// groundTruth is the package of a client module's executable cases, each
// labelled with the slot rule it must trigger or "clean" (see
// analyzer/groundtruth).
const groundTruth = "./groundtruth"

// groundTruthOverlay is nil but for the valkey-go module, whose ground
// truth is the rueidis module's, renamed (groundtruth.ValkeyFromRueidis):
// the package exists only in the overlay.
func groundTruthOverlay(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	if filepath.Base(dir) != "valkey" {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "..", "rueidis", "groundtruth", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	overlay := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(dir, "groundtruth", filepath.Base(f))] = []byte(groundtruth.ValkeyFromRueidis.Replace(string(data)))
	}
	if len(overlay) == 0 {
		t.Fatalf("no rueidis cases in %s", filepath.Join(dir, "..", "rueidis", "groundtruth"))
	}
	return overlay
}

// checkGroundTruth: the analyzers report exactly each labelled case's
// label inside it, of the slot rules.
func checkGroundTruth(t *testing.T, res *suitetest.Result, pkg *packages.Package) {
	t.Helper()
	label := map[string]string{}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if l, ok := groundtruth.Label(fd); ok {
					label[fd.Name.Name] = l
				}
			}
		}
	}
	if len(label) < 10 {
		t.Fatalf("only %d labelled cases", len(label))
	}
	reported := map[string][]string{}
	for name, fs := range res.ByFunc(pkg) {
		for _, f := range fs {
			if label[name] != "" && groundtruth.SlotRules[f.Category] {
				reported[name] = append(reported[name], f.Category)
			}
		}
	}
	for name, want := range label {
		if d := groundtruth.Disagreement(want, reported[name]); d != "" {
			t.Errorf("%s %s", name, d)
		}
	}
}
