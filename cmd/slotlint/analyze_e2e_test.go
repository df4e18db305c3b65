package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
)

var (
	binOnce sync.Once
	binDir  string // removed by TestMain
	binPath string
	binErr  error
)

// TestMain removes the binary sharedBinary built and the hooks
// repository and pre-commit home of sharedPreCommit: they live outside any
// test's temporary directory, so that every test can use them.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{binDir, preCommitDir} {
		if dir != "" {
			if err := os.RemoveAll(dir); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	os.Exit(code)
}

// sharedBinary builds slotlint once for all the tests that run it. The
// build is the same file from any checkout of the same code (-trimpath: no
// directory in it; -buildvcs=false: no commit): go vet keys its cache by a
// hash of the tool's file, so that a new clone, or a commit that changes
// only tests, finds the results of the go vet runs below for every
// dependency of testdata/e2e in the cache (about 12 s of CPU per run with
// flags of its own when not; BENCHMARKS.md, "How long make test takes").
// The module's own packages are keyed by their directory, so a result is
// never another checkout's.
func sharedBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "slotlint-e2e")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "slotlint")
		out, err := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runIn runs a command in a module of testdata with a clean Go environment
// (module mode, no workspace) and returns its exit code and output.
func runIn(t *testing.T, dir string, name string, args ...string) (int, string, string) {
	t.Helper()
	r := runCommand(dir, name, args...)
	if r.err != nil {
		t.Fatalf("%s %v: %v", name, args, r.err)
	}
	return r.code, r.stdout, r.stderr
}

// runResult is what runCommand returns: the exit code and output of a command,
// or why it could not be started.
type runResult struct {
	code           int
	stdout, stderr string
	err            error
}

// runCommand runs name with args in dir, as runIn does.
func runCommand(dir string, name string, args ...string) runResult {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GO111MODULE=on")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := runResult{stdout: stdout.String(), stderr: withoutDownloads(stderr.String())}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.err = err
	}
	return r
}

// sharedRuns holds the runs of runShared: directory and arguments ->
// func() runResult.
var sharedRuns sync.Map

// runShared is runIn for a run that writes no file, made once per test
// binary for the same directory and arguments: the tests that check
// different things of the same output share one analysis of the module.
func runShared(t *testing.T, dir string, name string, args ...string) (int, string, string) {
	t.Helper()
	key := strings.Join(append([]string{dir, name}, args...), "\x00")
	once, _ := sharedRuns.LoadOrStore(key, sync.OnceValue(func() runResult { return runCommand(dir, name, args...) }))
	r := once.(func() runResult)()
	if r.err != nil {
		t.Fatalf("%s %v: %v", name, args, r.err)
	}
	return r.code, r.stdout, r.stderr
}

// withoutDownloads drops the go command's "go: downloading" lines: on a
// machine with a cold module cache they precede any tool's output.
func withoutDownloads(stderr string) string {
	lines := strings.SplitAfter(stderr, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "go: downloading ") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "")
}

var findingLine = regexp.MustCompile(`^(.+\.go):(\d+):(\d+): (.*)$`)

// findings extracts "path:line:col: message" lines of Go files, paths
// relative to dir.
func findings(t *testing.T, dir, output string) []string {
	t.Helper()
	return findingLines(t, dir, output, findingLine)
}

// findingLines extracts the lines line matches (file, line, column,
// message), paths relative to dir when inside it, sorted.
func findingLines(t *testing.T, dir, output string, line *regexp.Regexp) []string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(output, "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		file := m[1]
		if rel, err := filepath.Rel(abs, file); err == nil && filepath.IsAbs(file) && !strings.HasPrefix(rel, "..") {
			file = rel
		}
		file = strings.TrimPrefix(filepath.ToSlash(file), "./")
		out = append(out, file+":"+m[2]+":"+m[3]+": "+m[4])
	}
	sort.Strings(out)
	return out
}

// e2eWant is what slotlint must report on testdata/e2e, read and checked
// by hand: each is a real cluster bug of the module's code, printed with
// its rule ID (what a //slotlint:ignore comment names).
func e2eWant() []string {
	want := []string{
		`app/app.go:17:9: SL1002 DEL keys "session:" + id and "tokens:" + id share no hash tag (CROSSSLOT risk on a cluster)`,
		`app/app.go:21:9: SL1001 MGET keys "count:a" (slot 9931) and "count:b" (slot 5800) are in different slots`,
		`app/app.go:29:25: SL1101 key "{stats}:" + id has the constant hash tag {stats}: every key of the family is in slot 7650 (hot shard)`,
		`app/app.go:35:15: SL1003 TxPipelined transaction keys "cart:{" + id + "}" and "carts:deleted" (slot 13746) share no hash tag (CROSSSLOT risk on a cluster)`,
		`cgo/cgo.go:18:2: SL1002 MGET keys "q:" + strconv.Itoa(n) and "r:" + strconv.Itoa(n) share no hash tag (CROSSSLOT risk on a cluster)`,
		`generic/generic.go:11:2: SL1002 MGET keys "a:" + id and "b:" + id share no hash tag (CROSSSLOT risk on a cluster)`,
		`generic/generic.go:19:16: SL1101 key "{p}:" + id has the constant hash tag {p}: every key of the family is in slot 16023 (hot shard)`,
	}
	if runtime.GOOS == "linux" {
		want = append(want, `tags/linux.go:12:2: SL1001 RENAME keys "old" (slot 5439) and "new" (slot 15045) are in different slots`)
	}
	sort.Strings(want)
	return want
}

// TestEndToEnd runs the binary directly and as go vet's tool over a real
// module requiring go-redis v9.23.0, and expects the same findings from
// both: including packages that use generics, cgo and build tags, and none
// from the package without go-redis or the file excluded by its build tag.
func TestEndToEnd(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	want := e2eWant()

	code, stdout, stderr := runShared(t, dir, bin, "./...")
	if code != 3 {
		t.Fatalf("slotlint ./...: exit %d, want 3 (findings)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	direct := findings(t, dir, stdout+stderr)
	if strings.Join(direct, "\n") != strings.Join(want, "\n") {
		t.Errorf("slotlint ./... findings:\n%s\nwant:\n%s", strings.Join(direct, "\n"), strings.Join(want, "\n"))
	}

	code, stdout, stderr = runShared(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 {
		t.Fatalf("go vet -vettool: exit 0, want failure\n%s%s", stdout, stderr)
	}
	vet := findings(t, dir, stdout+stderr)
	if strings.Join(vet, "\n") != strings.Join(direct, "\n") {
		t.Errorf("go vet -vettool findings differ from the direct run:\n%s\ndirect:\n%s", strings.Join(vet, "\n"), strings.Join(direct, "\n"))
	}
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, "panic") {
			t.Errorf("output mentions a panic:\n%s", out)
		}
	}
}

// TestEndToEndJSON checks -json: the go/analysis JSON shape, with each
// diagnostic's category set to its rule ID.
func TestEndToEndJSON(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	// The run of TestEndToEndBoolFlags that prints JSON: -json spelled
	// beside -sarif=false (TestBoolFlags parses -json alone).
	code, stdout, stderr := runShared(t, dir, bin, "-sarif=false", "-json", "./...")
	if code != 0 {
		t.Fatalf("slotlint -json: exit %d\n%s", code, stderr)
	}
	// package path -> analyzer -> diagnostics
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("-json output is not JSON: %v\n%s", err, stdout)
	}
	type diag struct {
		Posn     string `json:"posn"`
		Message  string `json:"message"`
		Category string `json:"category"`
	}
	got := map[string]bool{}
	for _, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var ds []diag
			if err := json.Unmarshal(raw, &ds); err != nil {
				t.Fatalf("analyzer %s: %v: %s", name, err, raw)
			}
			for _, d := range ds {
				got[name+"/"+d.Category] = true
			}
		}
	}
	for _, want := range []string{"crossslot/SL1001", "crossslot/SL1002", "txslot/SL1003", "hashtag/SL1101"} {
		if !got[want] {
			t.Errorf("no %s diagnostic in -json output; got %v", want, got)
		}
	}
}

// TestEndToEndTypeErrors: a package that does not type-check yields the
// compiler's errors and a failure status, not a crash.
func TestEndToEndTypeErrors(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e-broken")
	for _, args := range [][]string{{bin, "./..."}, {"go", "vet", "-vettool=" + bin, "./..."}} {
		code, stdout, stderr := runIn(t, dir, args[0], args[1:]...)
		out := stdout + stderr
		if code == 0 || strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
			t.Errorf("%v: exit %d, want a plain failure\n%s", args, code, out)
		}
		if !strings.Contains(out, "undefined: undefinedName") {
			t.Errorf("%v: the type error is not reported:\n%s", args, out)
		}
	}
}

// TestEndToEndTypeErrorsJSON: with -json, each rule's entry for a package
// that does not compile, or that imports one, names the cause, the first
// type error with its position, and nothing of the analyzers the rules
// are built on.
func TestEndToEndTypeErrorsJSON(t *testing.T) {
	bin := sharedBinary(t)
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "e2e-broken")
	for _, f := range []string{"go.mod", "go.sum", "broken.go"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "user"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := "package user\n\nimport \"example.com/broken\"\n\nvar _ = broken.Bad\n"
	if err := os.WriteFile(filepath.Join(dir, "user", "user.go"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runIn(t, dir, bin, "-json", "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "analysis skipped") {
		t.Errorf("stderr repeats the checker's errors:\n%s", stderr)
	}
	var tree map[string]map[string]struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	cause := regexp.MustCompile(`broken\.go:11:30: undefined: undefinedName \(and 1 more error\)$`)
	for _, pkg := range []string{"example.com/broken", "example.com/broken/user"} {
		entries := tree[pkg]
		for _, a := range analyzer.Analyzers() {
			e, ok := entries[a.Name]
			if !ok || !cause.MatchString(e.Error) {
				t.Errorf("%s: %s: error %q, want the type error", pkg, a.Name, e.Error)
			}
			if want := "imports example.com/broken, which does not compile: "; pkg == "example.com/broken/user" && !strings.HasPrefix(e.Error, want) {
				t.Errorf("%s: %s: error %q, want it to start %q", pkg, a.Name, e.Error, want)
			}
			delete(entries, a.Name)
		}
		for name, e := range entries {
			t.Errorf("%s: entry for %s, not a rule of the suite: %q", pkg, name, e.Error)
		}
	}
	if strings.Contains(stdout, "prerequisites") {
		t.Errorf("the output names failed prerequisites:\n%s", stdout)
	}
}

// TestEndToEndFix shows the suggested fix with -diff (alone, a dry run, or
// with -fix), applies it with -fix to a copy of a module, and checks the
// keys now share a tag and the finding is gone.
func TestEndToEndFix(t *testing.T) {
	bin := sharedBinary(t)
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "e2e")
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code := `package fixme

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Load(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, "user:"+id+":name", "user:"+id+":email")
}
`
	if err := os.WriteFile(filepath.Join(dir, "fixme.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	fixed := `rdb.MGet(ctx, "user:{"+id+"}:name", "user:{"+id+"}:email")`
	// -diff, with or without -fix, shows the fix and leaves the file alone.
	for _, flags := range [][]string{{"-fix", "-diff"}, {"-diff"}} {
		status, stdout, stderr := runIn(t, dir, bin, append(flags, ".")...)
		if status != 0 || !strings.Contains(stdout, "+\t"+fixed) || !strings.Contains(stderr, "would apply (-diff: no file changed) 1 fix in 1 file") {
			t.Errorf("slotlint %v: exit %d, want 0 with the fix as a diff and a count\nstdout:\n%sstderr:\n%s", flags, status, stdout, stderr)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "fixme.go")); string(b) != code {
			t.Fatalf("slotlint %v changed the file:\n%s", flags, b)
		}
	}
	// -fix says what it did.
	c, _, stderr := runIn(t, dir, bin, "-fix", ".")
	if want := "slotlint: applied 1 fix in 1 file: "; c != 0 || !strings.HasPrefix(stderr, want) || !strings.HasSuffix(strings.TrimSpace(stderr), "fixme.go") {
		t.Fatalf("slotlint -fix: exit %d, want 0 and %q naming fixme.go\n%s", c, want, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "fixme.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), fixed) {
		t.Fatalf("fix not applied:\n%s", b)
	}
	if c, stdout, stderr := runIn(t, dir, bin, "."); c != 0 {
		t.Errorf("after -fix: exit %d\n%s%s", c, stdout, stderr)
	}
}

// TestEndToEndFlags: settings reach the rules the same way directly and
// through go vet: -slotlint.strict adds SL1005, -slotlint.disable drops a
// rule. Both settings go in one pair of runs: each changes findings the
// other leaves alone, so either one lost on the way shows, and a go vet
// run with settings of its own analyses every dependency again (about
// 12 s of CPU over this module).
func TestEndToEndFlags(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	strictLine := `passthru/passthru.go:12:9: SL1005 RENAME keys cannot be resolved statically (src, dst are built elsewhere), so their slots are unchecked`
	// Reported by SL1001 on app.go and by SL1101 on app.go and
	// generic.go (e2eWant).
	disabled := []string{`count:a`, `SL1001`, `SL1101`}
	for _, tt := range []struct {
		flags       []string
		has, hasNot []string
	}{
		{nil, []string{`count:a`, `SL1101`}, []string{strictLine}},
		{[]string{"-slotlint.strict", "-slotlint.disable=SL1001,SL1101"}, []string{strictLine}, disabled},
	} {
		// Without flags, the runs of TestEndToEnd.
		_, stdout, stderr := runShared(t, dir, bin, append(tt.flags, "./...")...)
		direct := findings(t, dir, stdout+stderr)
		_, stdout, stderr = runShared(t, dir, "go", append(append([]string{"vet", "-vettool=" + bin}, tt.flags...), "./...")...)
		vet := findings(t, dir, stdout+stderr)
		if strings.Join(vet, "\n") != strings.Join(direct, "\n") {
			t.Errorf("flags %v: go vet and direct runs differ:\nvet:\n%s\ndirect:\n%s", tt.flags, strings.Join(vet, "\n"), strings.Join(direct, "\n"))
		}
		all := strings.Join(direct, "\n")
		for _, has := range tt.has {
			if !strings.Contains(all, has) {
				t.Errorf("flags %v: missing %q in\n%s", tt.flags, has, all)
			}
		}
		for _, hasNot := range tt.hasNot {
			if strings.Contains(all, hasNot) {
				t.Errorf("flags %v: unexpected %q in\n%s", tt.flags, hasNot, all)
			}
		}
	}
}
