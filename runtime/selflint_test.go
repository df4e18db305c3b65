package runtime_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/runtime"
)

// TestSelfLint runs slotlint's whole suite over this package: every Go
// analyzer of analyzer.Analyzers() with its default settings over the
// package and its tests, and luacheck over every embedded script with the
// number of keys the package calls it with. The package ships as the
// reference for cluster-safe scripts, so it must produce no finding.
// (An external test package: the package itself must not depend on the
// checkers, see TestLayering.)
func TestSelfLint(t *testing.T) {
	t.Run("go", func(t *testing.T) {
		cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true}
		pkgs, err := packages.Load(cfg, ".")
		if err != nil {
			t.Fatal(err)
		}
		if n := packages.PrintErrors(pkgs); n > 0 {
			t.Fatalf("%d errors loading the package", n)
		}
		graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		analyzed := map[string]bool{}
		var findings []string
		for _, act := range graph.Roots {
			if act.Err != nil {
				t.Errorf("%s: %v", act, act.Err)
			}
			analyzed[act.Analyzer.Name] = true
			for _, d := range act.Diagnostics {
				findings = append(findings, act.Package.Fset.Position(d.Pos).String()+": "+d.Category+": "+d.Message)
			}
		}
		for _, a := range analyzer.Analyzers() {
			if !analyzed[a.Name] {
				t.Errorf("analyzer %s did not run", a.Name)
			}
		}
		sort.Strings(findings)
		for _, f := range dedupe(findings) {
			t.Error(f)
		}
	})

	t.Run("lua", func(t *testing.T) {
		// The number of KEYS each script is called with (runtime's Go code
		// passes them; TestScriptKeysShareSlotOnCluster records them).
		keys := map[string]int{
			"decrement":    1,
			"issue_once":   1,
			"lock_and_set": 3,
			"max_update":   2,
			"obtain":       2,
			"refresh":      1,
			"release":      3,
			"set_state":    2,
		}
		files, err := filepath.Glob(filepath.Join("lua", "*.lua"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no scripts found: %v", err)
		}
		embedded := map[string]string{}
		for _, s := range runtime.Scripts() {
			embedded[s.Name()] = s.Source()
		}
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".lua")
			n, ok := keys[name]
			if !ok {
				t.Errorf("%s: add the script's number of keys to this test", file)
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if embedded[name] != string(src) {
				t.Errorf("%s differs from the embedded script %q", file, name)
			}
			for _, f := range luacheck.Check(src, luacheck.Options{Filename: file, NumKeys: n, KeysKnown: true}) {
				t.Errorf("%s: %s: %s", f.Pos, f.Rule, f.Message)
			}
		}
		if len(files) != len(embedded) {
			t.Errorf("%d script files, %d embedded scripts", len(files), len(embedded))
		}
	})
}

func dedupe(sorted []string) []string {
	var out []string
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
