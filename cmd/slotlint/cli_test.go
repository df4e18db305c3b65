package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/config"
)

// runHere runs the command in process and returns its status and output.
func runHere(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	saved := config.Current
	t.Cleanup(func() { config.Current = saved })
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestHelpShowsTheTool: -h and help start with the modes, then the output
// flags, then the rule flags, and show none of the driver's debugging
// flags.
func TestHelpShowsTheTool(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"--help"}} {
		code, stdout, stderr := runHere(t, args...)
		out := stdout + stderr
		if code != 0 {
			t.Errorf("slotlint %v: exit %d, want 0", args, code)
		}
		if !strings.HasPrefix(out, "slotlint finds Redis Cluster key-design bugs") {
			t.Errorf("slotlint %v does not start with what the tool does:\n%s", args, out)
		}
		order := []string{"slotlint [flags] PACKAGES", "slotlint keyslot", "slotlint lua", "slotlint version", "slotlint help [RULE]",
			"output flags:", "-json", "-sarif", "-fix", "-diff",
			"rule flags:", "-slotlint.disable=IDS", "-slotlint.enable=IDS", "-slotlint.strict", "-slotlint.braces",
			"package flags:", "-test", "exit status:"}
		at := 0
		for _, want := range order {
			i := strings.Index(out[at:], want)
			if i < 0 {
				t.Errorf("slotlint %v: %q missing or out of order (after byte %d):\n%s", args, want, at, out)
				break
			}
			at += i + len(want)
		}
		for _, gone := range []string{"-debug", "-cpuprofile", "-memprofile", "-trace", "-c=", "-V"} {
			if strings.Contains(out, gone) {
				t.Errorf("slotlint %v shows %s:\n%s", args, gone, out)
			}
		}
	}
}

func TestHelpRule(t *testing.T) {
	code, stdout, _ := runHere(t, "help", "sl1002")
	if code != 0 || !strings.HasPrefix(stdout, "# SL1002: keys of one command share no hash tag") || !strings.Contains(stdout, "## Suppress") {
		t.Errorf("slotlint help sl1002: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runHere(t, "help", "LUA201")
	if code != 0 || !strings.HasPrefix(stdout, "# LUA201") {
		t.Errorf("slotlint help LUA201: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr := runHere(t, "help", "SL9999")
	if code != 2 || stdout != "" || !strings.Contains(stderr, `no rule "SL9999"`) || !strings.Contains(stderr, "SL1001,") {
		t.Errorf("slotlint help SL9999: exit %d, want 2 and the list of rules\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestRuleFlagsBeforeLoading: a rule flag naming no rule is a usage error
// given once, with the rules there are, before any package is loaded (the
// pattern here does not exist), and the LUA IDs Go mode reports are rules.
func TestRuleFlagsBeforeLoading(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, stdout, stderr := runHere(t, "-slotlint.disable=SL1104,SL9999", "./nosuch/...")
	if code != exitUsage || stdout != "" {
		t.Errorf("exit %d, want %d (usage)\nstdout:\n%s", code, exitUsage, stdout)
	}
	if want := `slotlint: -slotlint.disable names unknown rule "SL9999" (rules: SL1001,`; !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr:\n%s\nwant one line starting %q", stderr, want)
	}
	if !strings.Contains(stderr, "LUA201") {
		t.Errorf("the list of rules lacks the LUA rules:\n%s", stderr)
	}
	if strings.Contains(stderr, "nosuch") || strings.Contains(stderr, "go.mod") {
		t.Errorf("packages were loaded before the flags were checked:\n%s", stderr)
	}
	// A LUA ID passes the check and reaches the loading of packages.
	code, _, stderr = runHere(t, "-slotlint.disable=LUA201", "./nosuch/...")
	if code != exitNoLoad || strings.Contains(stderr, "unknown rule") {
		t.Errorf("-slotlint.disable=LUA201: exit %d, want %d (the pattern loads nothing)\n%s", code, exitNoLoad, stderr)
	}
}

func TestNoPackages(t *testing.T) {
	code, _, stderr := runHere(t, "-slotlint.strict")
	if code != exitUsage || !strings.Contains(stderr, "slotlint ./...") {
		t.Errorf("no packages: exit %d, want %d with a hint\n%s", code, exitUsage, stderr)
	}
}

func TestOutputFlagConflicts(t *testing.T) {
	for _, args := range [][]string{{"-json", "-fix", "."}, {"-sarif", "-diff", "."}, {"-json", "-sarif", "."}} {
		if code, _, stderr := runHere(t, args...); code != exitUsage || stderr == "" {
			t.Errorf("slotlint %v: exit %d, want %d with an error", args, code, exitUsage)
		}
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runHere(t, "version")
	// go test binaries have no module version: (devel).
	if code != 0 || !strings.HasPrefix(stdout, "slotlint (devel)") || !strings.Contains(stdout, "go1.") {
		t.Errorf("slotlint version: exit %d: %q", code, stdout)
	}
	var out bytes.Buffer
	if code := runVet([]string{"-V=full"}, &out); code != 0 {
		t.Fatalf("-V=full: exit %d", code)
	}
	// go vet keys its cache by this line: without "devel" as the third
	// field the whole line is the key, and the hash changes with the binary.
	f := strings.Fields(out.String())
	if len(f) < 4 || f[0] != "slotlint" || f[1] != "version" || f[2] == "devel" || !strings.HasPrefix(f[len(f)-1], "buildID=") || len(f[len(f)-1]) != len("buildID=")+64 {
		t.Errorf("-V=full: %q", out.String())
	}
}

func TestUnifiedDiff(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	after := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	want := `--- x.go (old)
+++ x.go (new)
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -11,3 +11,4 @@
 k
 l
 m
+n
`
	if got := unifiedDiff("x.go", before, after); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("x.go", before, before); got != "" {
		t.Errorf("equal texts: %q", got)
	}
	if got := unifiedDiff("x.go", "", "x\n"); got != "--- x.go (old)\n+++ x.go (new)\n@@ -0,0 +1,1 @@\n+x\n" {
		t.Errorf("new file: %q", got)
	}
}

func TestApplyEdits(t *testing.T) {
	src := []byte("package p\n\nvar x = \"a\"+id\n")
	// Edits in any order; the result is gofmt-ed.
	got, err := apply(src, []fileEdit{{start: 21, end: 21, text: "}"}, {start: 20, end: 20, text: "{"}})
	if err != nil || string(got) != "package p\n\nvar x = \"{a}\" + id\n" {
		t.Errorf("apply: %q, %v", got, err)
	}
	if _, err := apply(src, []fileEdit{{start: 10, end: 20}, {start: 15, end: 16}}); err == nil {
		t.Error("overlapping edits applied")
	}
	if _, err := apply(src, []fileEdit{{start: 10, end: 200}}); err == nil {
		t.Error("an edit past the end applied")
	}
	if !(fileEdit{start: 3, end: 3}).overlaps(fileEdit{start: 3, end: 3, text: "x"}) || (fileEdit{start: 1, end: 3}).overlaps(fileEdit{start: 3, end: 5}) {
		t.Error("overlaps")
	}
}
