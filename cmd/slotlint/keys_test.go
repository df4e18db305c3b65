package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/keymap"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// keysJSON runs slotlint keys -json in dir and decodes the map.
func keysJSON(t *testing.T, dir string, args ...string) *keymap.Map {
	t.Helper()
	code, stdout, stderr := runIn(t, dir, sharedBinary(t), append([]string{"keys", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("slotlint keys -json %v: exit %d\n%s", args, code, stderr)
	}
	var m keymap.Map
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	return &m
}

// TestKeysHasEveryJointFinding runs the analyzer mode and the key map as
// two processes over the example service and the e2e module, with the
// default rules and with -slotlint.strict (SL1005): every finding of a
// rule on joint uses is on a joint use of the map, with its rule ID, at
// its position. The analyzer's runs are those other tests read
// (runShared): the text of TestReadmeQuickStart and TestEndToEnd, the JSON
// of TestExampleShowsEveryRule.
func TestKeysHasEveryJointFinding(t *testing.T) {
	bin := sharedBinary(t)
	e2e := filepath.Join("..", "..", "testdata", "e2e")
	for _, run := range []struct {
		dir      string
		keysArgs []string
		lintArgs []string
	}{
		{exampleDir, []string{"./..."}, []string{"./..."}},
		{exampleDir, []string{"-slotlint.strict", "./..."}, []string{"-json", "-slotlint.strict", "./..."}},
		{e2e, []string{"./..."}, []string{"./..."}},
	} {
		dir := run.dir
		m := keysJSON(t, dir, run.keysArgs...)
		if m.Version != keymap.SchemaVersion || len(m.Families) == 0 {
			t.Fatalf("%s: version %d, %d families", dir, m.Version, len(m.Families))
		}
		reported := map[string]bool{}
		for _, j := range m.Joint {
			for _, f := range j.Findings {
				reported[f.Rule+" "+f.Site.String()] = true
			}
		}
		_, stdout, stderr := runShared(t, dir, bin, run.lintArgs...)
		n := 0
		for _, f := range lintFindings(t, stdout, run.lintArgs[0] == "-json") {
			if !keymap.IsJointRule(f.rule) {
				continue
			}
			n++
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			rel, err := filepath.Rel(abs, f.posn)
			if err != nil {
				t.Fatal(err)
			}
			if !reported[f.rule+" "+filepath.ToSlash(rel)] {
				t.Errorf("%s: %s at %s is on no joint use of slotlint keys", dir, f.rule, rel)
			}
		}
		if n == 0 {
			t.Errorf("%s: no joint-use finding to look for\n%s%s", dir, stdout, stderr)
		}
	}
}

// lintFinding is a finding of the analyzer mode: its position
// (file:line:col) and rule ID.
type lintFinding struct{ posn, rule string }

// lintFindings reads the findings of the analyzer mode's output, text
// ("file:line:col: RULE message" lines) or -json.
func lintFindings(t *testing.T, stdout string, isJSON bool) []lintFinding {
	t.Helper()
	var out []lintFinding
	if !isJSON {
		for line := range strings.Lines(stdout) {
			posn, rest, ok := strings.Cut(line, ": ")
			rule, _, _ := strings.Cut(rest, " ")
			if ok {
				out = append(out, lintFinding{posn, rule})
			}
		}
		return out
	}
	var tree map[string]map[string][]struct {
		Posn     string `json:"posn"`
		Category string `json:"category"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, byAnalyzer := range tree {
		for _, ds := range byAnalyzer {
			for _, d := range ds {
				out = append(out, lintFinding{d.Posn, d.Category})
			}
		}
	}
	return out
}

// TestKeysFormats: the text table by default, -dot, and -html FILE beside
// the text, on the example service; the family of the cart's items shows
// in each.
func TestKeysFormats(t *testing.T) {
	bin := sharedBinary(t)
	page := filepath.Join(t.TempDir(), "keys.html")
	code, text, stderr := runIn(t, exampleDir, bin, "keys", "-html", page, "./...")
	if code != 0 || !strings.HasPrefix(text, "24 key families in ") || !strings.Contains(text, "cart:{<userID>}:items") {
		t.Errorf("slotlint keys -html: exit %d\n%s%s", code, text, stderr)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(doc), "`slotlint keys ./...` in [examples/shop](../examples/shop):\n\n```\n")
	block, _, _ = strings.Cut(block, "```\n")
	if block != text {
		t.Errorf("docs/keys.md shows another map of examples/shop than slotlint keys prints:\n%s", text)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "cart:{&lt;userID&gt;}:items") {
		t.Errorf("the page does not show cart:{<userID>}:items (%v)", err)
	}
	code, dot, stderr := runIn(t, exampleDir, bin, "keys", "-dot", "./...")
	if code != 0 || !strings.HasPrefix(dot, "graph keys {") || !strings.Contains(dot, `"cart:{<userID>}:items\nentity tag"`) {
		t.Errorf("slotlint keys -dot: exit %d\n%s%s", code, dot, stderr)
	}
}

// TestKeysBadInput: code that does not compile, code without Redis, a
// pattern that matches nothing and bad flags each get a clear answer.
func TestKeysBadInput(t *testing.T) {
	bin := sharedBinary(t)
	e2e := filepath.Join("..", "..", "testdata", "e2e")
	cases := []struct {
		dir    string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{filepath.Join("..", "..", "testdata", "e2e-broken"), []string{"./..."}, exitNoLoad, "0 key families in 0 packages\n", "undefined: undefinedName"},
		{e2e, []string{"./noredis"}, exitClean, "0 key families in 1 package\n", ""},
		{e2e, []string{"./nothere"}, exitNoLoad, "0 key families in 0 packages\n", "check the package patterns"},
		{e2e, []string{"-json", "-dot", "./..."}, exitUsage, "", "choose one"},
		{e2e, nil, exitUsage, "", "no packages named"},
		{e2e, []string{"-slotlint.disable=SL9999", "./..."}, exitUsage, "", `unknown rule "SL9999"`},
	}
	for _, c := range cases {
		code, stdout, stderr := runIn(t, c.dir, bin, append([]string{"keys"}, c.args...)...)
		if code != c.code || !strings.HasPrefix(stdout, c.stdout) || (c.stdout == "" && stdout != "") || !strings.Contains(stderr, c.stderr) {
			t.Errorf("slotlint keys %v in %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
				c.args, c.dir, code, stdout, stderr, c.code, c.stdout, c.stderr)
		}
		if strings.Contains(stderr, "panic") {
			t.Errorf("slotlint keys %v panicked:\n%s", c.args, stderr)
		}
	}
}

// TestKeysRuleFlags: the map honours the rule flags it shares with the
// analyzer mode: with SL1002 disabled, the MGET it reports keeps its
// verdict but names no rule.
func TestKeysRuleFlags(t *testing.T) {
	m := keysJSON(t, filepath.Join("..", "..", "testdata", "e2e"), "-slotlint.disable="+rules.NoCommonTag, "./app")
	for _, j := range m.Joint {
		if j.What == "DEL" && (j.Verdict != keymap.CrossSlot || slices.Contains(j.Rules, rules.NoCommonTag)) {
			t.Errorf("DEL with SL1002 disabled: verdict %s, rules %v; want cross-slot and no SL1002", j.Verdict, j.Rules)
		}
	}
}
