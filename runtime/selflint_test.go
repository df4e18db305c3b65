package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/suitetest"
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
		prog := suitetest.Load(t, suitetest.Config{Dir: ".", Patterns: []string{"."}, Tests: true})
		res := suitetest.Run(t, prog, analyzer.Analyzers()...)
		for _, f := range suitetest.Unique(res.Findings) {
			t.Error(f)
		}
	})

	t.Run("lua", func(t *testing.T) {
		// The number of KEYS each script is called with (runtime's Go code
		// passes them; TestScriptKeysShareSlotOnCluster records them).
		keys := map[string]int{
			"count_window": 1,
			"decrement":    1,
			"issue_once":   1,
			"lock_and_set": 4,
			"max_update":   2,
			"obtain":       3,
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
			src := includePreludes(t, file)
			if embedded[name] != string(src) {
				t.Errorf("%s with its preludes differs from the embedded script %q", file, name)
			}
			if !strings.HasPrefix(string(src), "#!lua") {
				t.Errorf("%s: the #!lua shebang is not the first line", file)
			}
			// The text Redis runs, preludes included, is what is checked:
			// the checker joins the includes itself, as for BullMQ's.
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := luacheck.Options{Filename: file, NumKeys: n, KeysKnown: true, Includes: true}
			for _, f := range luacheck.Check(text, opts) {
				t.Errorf("%s: %s: %s", f.Pos, f.Rule, f.Message)
			}
		}
		if len(files) != len(embedded) {
			t.Errorf("%d script files, %d embedded scripts", len(files), len(embedded))
		}
	})
}

// includePreludes reads a script file and replaces each
// `--- @include "name"` line with lua/name.lua, as the package does when it
// loads it.
func includePreludes(t *testing.T, file string) []byte {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for line := range strings.Lines(string(src)) {
		name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), `--- @include "`)
		name, closed := strings.CutSuffix(name, `"`)
		if !ok || !closed {
			out = append(out, line...)
			continue
		}
		prelude, err := os.ReadFile(filepath.Join("lua", name+".lua"))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, prelude...)
	}
	return out
}
