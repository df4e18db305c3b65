package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/sarif/sariftest"
	"github.com/slotlint/slotlint/luacheck"
)

// exampleDir is the bundled example service of the README's quick start.
var exampleDir = filepath.Join("..", "..", "examples", "shop")

// exampleExceptions are the rules of the catalogue that the example
// cannot show, and why; examples/shop/README.md says the same.
var exampleExceptions = map[string]string{
	"SL1202": "its own finding is a script over the Lua checker's size limit (4 MiB); the Lua findings it carries are reported under their LUA IDs, which the example shows",
}

// exampleLuaArgs are the arguments of slotlint lua for the example's Lua
// files, named NAME-N.lua by the number of keys they take.
var exampleLuaArgs = []string{"lua", "-json", "-keys-from-name", "lua"}

// catalogue is every rule ID, Go and Lua.
func catalogue() []string {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	for _, r := range luacheck.Rules {
		ids = append(ids, r.ID)
	}
	return ids
}

// exampleFinding is one finding of the example: its rule, the analyzer
// that reported it (Go) and its place, relative to the example.
type exampleFinding struct {
	rule, analyzer, file string
	line                 int
	message              string
}

func (f exampleFinding) String() string {
	return fmt.Sprintf("%s:%d: %s %s", f.file, f.line, f.rule, f.message)
}

// parsePosn splits "path:line:col" into the path relative to dir and the
// line.
func parsePosn(t *testing.T, dir, posn string) (string, int) {
	t.Helper()
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		t.Fatalf("position %q", posn)
	}
	file := strings.Join(parts[:len(parts)-2], ":")
	line, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		t.Fatalf("position %q: %v", posn, err)
	}
	abs, _ := filepath.Abs(dir)
	if rel, err := filepath.Rel(abs, file); err == nil && filepath.IsAbs(file) {
		file = rel
	}
	return filepath.ToSlash(file), line
}

// exampleGoFindings runs slotlint -json over the example's packages, once
// per test binary for the same flags (TestKeysHasEveryJointFinding reads
// the strict run too).
func exampleGoFindings(t *testing.T, bin string, flags ...string) []exampleFinding {
	t.Helper()
	code, stdout, stderr := runShared(t, exampleDir, bin, append(append([]string{"-json"}, flags...), "./...")...)
	if code != 0 {
		t.Fatalf("slotlint -json %v ./...: exit %d\n%s", flags, code, stderr)
	}
	var tree map[string]map[string][]struct {
		Posn     string `json:"posn"`
		Category string `json:"category"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var out []exampleFinding
	for _, byAnalyzer := range tree {
		for name, ds := range byAnalyzer {
			for _, d := range ds {
				file, line := parsePosn(t, exampleDir, d.Posn)
				out = append(out, exampleFinding{rule: d.Category, analyzer: name, file: file, line: line, message: d.Message})
			}
		}
	}
	return out
}

// TestExampleShowsEveryRule runs the binary over the example service, its
// Go packages (with -slotlint.strict, which SL1005 needs) and its Lua
// files, and expects every rule of the catalogue but the documented
// exceptions exactly once, each at a place whose comment names it. A new
// rule fails this test until the example shows it or the exception is
// documented.
func TestExampleShowsEveryRule(t *testing.T) {
	bin := sharedBinary(t)
	found := exampleGoFindings(t, bin, "-slotlint.strict")
	for _, f := range found {
		// Lua findings in Go code are SL1202's, from the luascript analyzer.
		if strings.HasPrefix(f.rule, "LUA") && f.analyzer != "luascript" {
			t.Errorf("%v: a LUA rule reported by %s, not luascript", f, f.analyzer)
		}
	}
	code, stdout, stderr := runIn(t, exampleDir, bin, exampleLuaArgs...)
	if code != 1 {
		t.Fatalf("slotlint %s: exit %d, want 1 (findings)\n%s", strings.Join(exampleLuaArgs, " "), code, stderr)
	}
	var lua []struct {
		Posn     string `json:"posn"`
		Category string `json:"category"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal([]byte(stdout), &lua); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, d := range lua {
		file, line := parsePosn(t, exampleDir, d.Posn)
		found = append(found, exampleFinding{rule: d.Category, file: file, line: line, message: d.Message})
	}

	byRule := map[string][]exampleFinding{}
	for _, f := range found {
		byRule[f.rule] = append(byRule[f.rule], f)
	}
	want := map[string]bool{}
	for _, id := range catalogue() {
		if _, ok := exampleExceptions[id]; !ok {
			want[id] = true
		}
	}
	for id := range exampleExceptions {
		if _, ok := rules.Lookup(id); !ok && !strings.HasPrefix(id, "LUA") {
			t.Errorf("exception %s is not a rule of the catalogue", id)
		}
	}
	var ids []string
	for id := range want {
		ids = append(ids, id)
	}
	for id := range byRule {
		if !want[id] {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		switch fs := byRule[id]; {
		case !want[id]:
			t.Errorf("%s is not expected in the example (an exception, or not a rule), found %v", id, fs)
		case len(fs) == 0:
			t.Errorf("%s: no finding; the example must show each rule of the catalogue once, or examples/shop/README.md and exampleExceptions must say why it cannot", id)
		case len(fs) > 1:
			t.Errorf("%s: %d findings, want exactly 1: %v", id, len(fs), fs)
		}
	}

	// Each finding is a planted bug: a comment at most 10 lines above it
	// names its rule (below it for a finding on line 1, a shebang that
	// nothing may precede).
	for _, f := range found {
		b, err := os.ReadFile(filepath.Join(exampleDir, filepath.FromSlash(f.file)))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if f.line < 1 || f.line > len(lines) {
			t.Fatalf("%v: no such line", f)
		}
		near := lines[max(0, f.line-11):f.line]
		if f.line == 1 {
			near = lines[:min(len(lines), 11)]
		}
		if !strings.Contains(strings.Join(near, "\n"), f.rule) {
			t.Errorf("%v: no comment above it names %s", f, f.rule)
		}
	}

	// The example's README says where each rule is shown, and why the
	// exceptions are not.
	b, err := os.ReadFile(filepath.Join(exampleDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, f := range found {
		if !strings.Contains(readme, "| "+f.rule+" | `"+f.file+"`") {
			t.Errorf("examples/shop/README.md has no row \"| %s | `%s`\"", f.rule, f.file)
		}
	}
	_, cannot, _ := strings.Cut(readme, "What the example cannot show")
	for id := range exampleExceptions {
		if !strings.Contains(cannot, id) {
			t.Errorf("examples/shop/README.md does not say why the example cannot show %s", id)
		}
	}

	// The quick start runs without -slotlint.strict: the same findings but
	// SL1005's. Its text output (the run TestReadmeQuickStart compares
	// with the README) names each finding's file, line, rule and message.
	var strict, quick []string
	for _, f := range found {
		if f.analyzer != "" && f.rule != "SL1005" {
			strict = append(strict, f.String())
		}
	}
	code, stdout, stderr = runShared(t, exampleDir, bin, "./...")
	if code != 3 {
		t.Fatalf("slotlint ./...: exit %d, want 3 (findings)\n%s", code, stderr)
	}
	for _, l := range findings(t, exampleDir, stdout+stderr) {
		// file:line:col: RULE message, as exampleFinding prints it.
		m := findingLine.FindStringSubmatch(l)
		quick = append(quick, m[1]+":"+m[2]+": "+m[4])
	}
	if strings.Join(sorted(quick), "\n") != strings.Join(sorted(strict), "\n") {
		t.Errorf("without -slotlint.strict:\n%s\nwant the strict run's findings but SL1005:\n%s", strings.Join(sorted(quick), "\n"), strings.Join(sorted(strict), "\n"))
	}
}

// TestExampleSARIF: the example's SARIF validates, and the findings with a
// suggested fix (SL1002, SL1301) carry it.
func TestExampleSARIF(t *testing.T) {
	bin := sharedBinary(t)
	code, stdout, stderr := runIn(t, exampleDir, bin, "-sarif", "./...")
	if code != 0 {
		t.Fatalf("slotlint -sarif: exit %d\n%s", code, stderr)
	}
	log := sariftest.Valid(t, stdout)
	fixed := map[string]string{}
	for _, res := range log.Runs[0].Results {
		for _, fx := range res.Fixes {
			for _, ch := range fx.ArtifactChanges {
				for _, r := range ch.Replacements {
					if r.InsertedContent != nil {
						fixed[res.RuleID] += r.InsertedContent.Text
					}
				}
			}
		}
	}
	// SL1002 wraps id in {} in both keys; SL1301 moves the TTL into SETNX.
	if fixed["SL1002"] != "{}{}" || !strings.Contains(fixed["SL1301"], "time.Minute") || len(fixed) != 2 {
		t.Errorf("inserted text of the fixes by rule: %q, want SL1002's braces and SL1301's TTL only", fixed)
	}
}

// readmeBlock returns the lines of the first ``` block after the line of
// README.md that is exactly command (indented as a code line).
func readmeBlock(t *testing.T, command string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n    "+command+"\n")
	if !ok {
		t.Fatalf("README.md has no line %q", command)
	}
	_, block, ok := strings.Cut(after, "```\n")
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatalf("README.md: no ``` block after %q", command)
	}
	return strings.Split(strings.TrimSuffix(block, "\n"), "\n")
}

// TestReadmeQuickStart: the output the README's quick start shows is what
// the commands print on the example, paths relative to the clone.
func TestReadmeQuickStart(t *testing.T) {
	bin := sharedBinary(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		readme string
		args   []string
		code   int
	}{
		{"cd examples/shop && go tool slotlint ./...", []string{"./..."}, 3},
		{"go tool slotlint lua -keys-from-name lua", []string{"lua", "-keys-from-name", "lua"}, 1},
	} {
		// The Go run is TestExampleShowsEveryRule's too.
		code, stdout, stderr := runShared(t, exampleDir, bin, tt.args...)
		if code != tt.code {
			t.Errorf("slotlint %s: exit %d, want %d\n%s", strings.Join(tt.args, " "), code, tt.code, stderr)
		}
		got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(stdout+stderr, root+string(filepath.Separator), ""), "\n"), "\n")
		if want := readmeBlock(t, tt.readme); strings.Join(sorted(got), "\n") != strings.Join(sorted(want), "\n") {
			t.Errorf("slotlint %s prints\n%s\nREADME.md shows\n%s", strings.Join(tt.args, " "), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
