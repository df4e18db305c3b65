package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var luaFindingLine = regexp.MustCompile(`^(.+\.lua):(\d+):(\d+): (LUA\d+ .*)$`)

// luaFindingLines extracts "path:line:col: LUAxxx message" lines, paths
// relative to dir.
func luaFindingLines(t *testing.T, dir, output string) []string {
	t.Helper()
	return findingLines(t, dir, output, luaFindingLine)
}

// setDiff lists what got lacks from want (-) and has beyond it (+), or
// returns "" when they hold the same lines.
func setDiff(got, want []string) string {
	in := func(list []string) map[string]int {
		m := map[string]int{}
		for _, s := range list {
			m[s]++
		}
		return m
	}
	g, w := in(got), in(want)
	var diff []string
	for s, n := range w {
		if g[s] < n {
			diff = append(diff, "- "+s)
		}
	}
	for s, n := range g {
		if w[s] < n {
			diff = append(diff, "+ "+s)
		}
	}
	sort.Slice(diff, func(i, j int) bool { return diff[i][2:] < diff[j][2:] })
	return strings.Join(diff, "\n")
}

// TestChannelsAgree runs the four ways slotlint is used on one fixture (the
// e2e module, with the example service's Lua scripts under scripts/): the
// command itself, go vet -vettool, golangci-lint built with the module
// plugin, and pre-commit's two hooks. Each must report the findings of the
// command, compared as sets of "file:line:col: ID message" (golangci-lint
// without the ID, which its format does not show); the command's
// must be the fixture's known bugs, so an empty agreement cannot pass.
func TestChannelsAgree(t *testing.T) {
	integration(t)
	gcl := golangciBinary(t)
	runHooks := preCommitRun(t)
	bin := sharedBinary(t)

	repo := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "e2e"), repo)
	copyTree(t, filepath.Join(exampleDir, "lua"), filepath.Join(repo, "scripts"))
	if err := os.WriteFile(filepath.Join(repo, ".golangci.yml"), []byte(golangciConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")

	code, stdout, stderr := runIn(t, repo, bin, "./...")
	if code != 3 {
		t.Fatalf("slotlint ./...: exit %d, want 3 (findings)\n%s%s", code, stdout, stderr)
	}
	direct := findings(t, repo, stdout+stderr)
	if d := setDiff(direct, e2eWant()); d != "" {
		t.Fatalf("slotlint ./... on the e2e fixture, against its known bugs:\n%s", d)
	}
	// The hook runs slotlint lua on the staged files, without flags.
	code, stdout, stderr = runIn(t, repo, bin, "lua", "scripts")
	if code != 1 {
		t.Fatalf("slotlint lua scripts: exit %d, want 1 (findings)\n%s%s", code, stdout, stderr)
	}
	directLua := luaFindingLines(t, repo, stdout)
	if len(directLua) < 5 {
		t.Fatalf("slotlint lua scripts: %d findings, want those of the example's scripts:\n%s", len(directLua), stdout)
	}

	code, stdout, stderr = runIn(t, repo, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 {
		t.Errorf("go vet -vettool: exit 0, want failure\n%s%s", stdout, stderr)
	}
	if d := setDiff(findings(t, repo, stdout+stderr), direct); d != "" {
		t.Errorf("go vet -vettool=slotlint ./... against slotlint ./...:\n%s", d)
	}

	code, got, stderr := golangciFindings(t, gcl, repo)
	if code != 1 {
		t.Errorf("golangci-lint run: exit %d, want 1 (issues found)\n%s", code, stderr)
	}
	// golangci-lint prints the message in its own format, "text
	// (linter)", without the rule ID.
	if d := setDiff(got, withoutRuleIDs(direct)); d != "" {
		t.Errorf("golangci-lint run (slotlint plugin) against slotlint ./...:\n%s", d)
	}

	code, out := runHooks(repo)
	if code == 0 {
		t.Errorf("pre-commit run: exit 0, want failure\n%s", out)
	}
	if d := setDiff(findings(t, repo, out), direct); d != "" {
		t.Errorf("pre-commit hook slotlint against slotlint ./...:\n%s\noutput:\n%s", d, out)
	}
	if d := setDiff(luaFindingLines(t, repo, out), directLua); d != "" {
		t.Errorf("pre-commit hook slotlint-lua against slotlint lua scripts:\n%s\noutput:\n%s", d, out)
	}
	for _, o := range []string{out, stdout, stderr} {
		if strings.Contains(o, "panic") {
			t.Errorf("output mentions a panic:\n%s", o)
		}
	}
}

var ruleIDInFinding = regexp.MustCompile(`^(.+?:\d+:\d+: )(?:SL|LUA)\d{3,4} `)

// withoutRuleIDs drops the rule ID that starts the message of each finding
// line.
func withoutRuleIDs(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, ruleIDInFinding.ReplaceAllString(l, "$1"))
	}
	return out
}

func TestWithoutRuleIDs(t *testing.T) {
	got := withoutRuleIDs([]string{`a/b.go:1:2: SL1002 MGET keys`, `c.go:3:4: LUA201 x`, `d.go:5:6: no ID`})
	if want := []string{`a/b.go:1:2: MGET keys`, `c.go:3:4: x`, `d.go:5:6: no ID`}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("withoutRuleIDs: %q, want %q", got, want)
	}
}

func TestSetDiff(t *testing.T) {
	if d := setDiff([]string{"b", "a"}, []string{"a", "b"}); d != "" {
		t.Errorf("same sets: diff %q", d)
	}
	if d, want := setDiff([]string{"a", "c", "c"}, []string{"a", "b", "c"}), "- b\n+ c"; d != want {
		t.Errorf("diff %q, want %q", d, want)
	}
}
