package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// run runs name with args in dir and returns its stdout, stderr and exit
// status; a failure to start it fails the test.
func run(t *testing.T, dir, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), 0
}

// edit replaces old, which must occur once, with new in the file.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), old); n != 1 {
		t.Fatalf("%s holds %q %d times, want once", file, old, n)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFindingsDiff: findings-diff reports equal findings of a revision
// and an unchanged working tree, and exactly the changed findings, with
// exit status 1, once a rule's message changes in the working tree, on
// the Lua side and on the Go side. It works in a clone of this repository's HEAD,
// so the checkout is never touched.
func TestFindingsDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds slotlint twice")
	}
	script, err := filepath.Abs("findings-diff")
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "repo")
	if out, errs, code := run(t, ".", "git", "clone", "--quiet", "--shared", "..", clone); code != 0 {
		t.Fatalf("git clone: exit %d\n%s%s", code, out, errs)
	}
	// The Go side's input: one package of the end-to-end module, whose
	// requirements the binary must find in the module cache.
	app := filepath.Join(clone, "testdata", "e2e", "app")
	if out, errs, code := run(t, filepath.Dir(app), "go", "mod", "download"); code != 0 {
		t.Fatalf("go mod download: exit %d\n%s%s", code, out, errs)
	}

	out, errs, code := run(t, clone, script, "--only=lua", "HEAD")
	if code != 0 || out != "" || !strings.Contains(errs, "same findings") {
		t.Fatalf("unchanged tree: exit %d, want 0 and no diff\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// Every Lua input is read: the diff is empty because both sides
	// found the same, not because neither found anything.
	if strings.Contains(errs, "same findings (0 lines)") {
		t.Fatalf("unchanged tree: no findings at all\n%s", errs)
	}

	// One message changed on each side: the Lua checker's, over
	// testdata/lua, and SL1001's in the analyzer, over a directory given
	// after "--".
	const luaMsg = "goto is Lua 5.2 syntax: Redis runs Lua 5.1"
	edit(t, filepath.Join(clone, "luacheck", "source.go"), `"`+luaMsg, `"goto (changed) is Lua 5.2 syntax: Redis runs Lua 5.1`)
	edit(t, filepath.Join(clone, "analyzer", "crossslot", "crossslot.go"),
		`r.Report(rules.SlotsDiffer, call.Node, nil, "%s%s", o.Message, where)`,
		`r.Report(rules.SlotsDiffer, call.Node, nil, "changed: %s%s", o.Message, where)`)
	out, errs, code = run(t, clone, script, "--only=lua,extra", "HEAD", "--", app)
	if code != 1 {
		t.Fatalf("changed messages: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	var luaMinus, luaPlus, minus, plus int
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "-lua ") && strings.Contains(line, "\tLUA001\t"+luaMsg):
			luaMinus++
		case strings.HasPrefix(line, "+lua ") && strings.Contains(line, "\tLUA001\tgoto (changed) is Lua 5.2 syntax"):
			luaPlus++
		case strings.HasPrefix(line, "-lua ") || strings.HasPrefix(line, "+lua "):
			t.Errorf("changed Lua message: unexpected line in the diff: %s", line)
		case strings.HasPrefix(line, "-go ") && strings.Contains(line, "\tSL1001\t"):
			minus++
		case strings.HasPrefix(line, "+go ") && strings.Contains(line, "\tSL1001\tchanged: "):
			plus++
		case strings.HasPrefix(line, "-go ") || strings.HasPrefix(line, "+go "):
			t.Errorf("changed Go message: unexpected line in the diff: %s", line)
		}
	}
	// testdata/lua/LUA001/bad_goto.lua's goto, as is and with the other
	// flags; app's MGET of "count:a" and "count:b", with the default rules
	// and with -slotlint.strict.
	if luaMinus == 0 || luaMinus != luaPlus {
		t.Errorf("changed Lua message: %d old and %d new LUA001 goto lines, want the same number, at least 1:\n%s", luaMinus, luaPlus, out)
	}
	if minus == 0 || minus != plus {
		t.Errorf("changed Go message: %d old and %d new SL1001 lines, want the same number, at least 1:\n%s", minus, plus, out)
	}
}
