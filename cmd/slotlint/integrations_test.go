package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
)

// The golangci-lint and pre-commit tests need tools that take minutes to
// build or install; `make integration` provides them and sets
// SLOTLINT_INTEGRATION=1. There a missing tool fails the test when CI=true.

func integration(t *testing.T) {
	t.Helper()
	if os.Getenv("SLOTLINT_INTEGRATION") == "" {
		t.Skip("integration test: run by make integration (SLOTLINT_INTEGRATION=1)")
	}
}

func missingTool(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// copyModule copies the go.mod and go.sum of testdata/e2e (a module on
// go-redis v9.23.0) and the given files into a new directory.
func copyModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "e2e")
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyTree copies a directory tree (the e2e fixture) file by file.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

const golangciConfig = `version: "2"
linters:
  default: none
  enable: [slotlint]
  settings:
    custom:
      slotlint:
        type: module
        settings:
          strict: false
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
`

// golangciFindings runs the custom golangci-lint in dir and returns its
// findings as "path:line:col: message", the analyzer name golangci-lint
// puts before each message removed, so they compare with slotlint's own.
func golangciFindings(t *testing.T, gcl, dir string, extra ...string) (int, []string, string) {
	t.Helper()
	args := append([]string{"run", "--output.json.path=stdout", "--output.text.path=stderr", "--show-stats=false"}, extra...)
	code, stdout, stderr := runIn(t, dir, gcl, append(args, "./...")...)
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("golangci-lint run: exit %d, output is not its JSON report: %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	var names []string
	for _, a := range analyzer.Analyzers() {
		names = append(names, a.Name)
	}
	var out []string
	for _, is := range report.Issues {
		if is.FromLinter != "slotlint" {
			t.Errorf("issue from linter %q, want slotlint: %s", is.FromLinter, is.Text)
		}
		text := is.Text
		for _, n := range names {
			text = strings.TrimPrefix(text, n+": ")
		}
		out = append(out, strings.Join([]string{filepath.ToSlash(is.Pos.Filename), strconv.Itoa(is.Pos.Line), strconv.Itoa(is.Pos.Column), " " + text}, ":"))
	}
	sort.Strings(out)
	return code, out, stderr
}

// golangciBinary is the golangci-lint v2 built with the slotlint module
// plugin (scripts/custom-gcl) that SLOTLINT_GOLANGCI_LINT names.
func golangciBinary(t *testing.T) string {
	t.Helper()
	gcl := os.Getenv("SLOTLINT_GOLANGCI_LINT")
	if gcl == "" {
		missingTool(t, "SLOTLINT_GOLANGCI_LINT is not set: build it with scripts/custom-gcl")
	}
	if _, err := os.Stat(gcl); err != nil {
		t.Fatalf("SLOTLINT_GOLANGCI_LINT: %v", err)
	}
	return gcl
}

// TestGolangciLintPlugin: plugin settings reach the rules, a bad setting
// is an error, --fix applies a suggested fix, and nolint and
// slotlint:ignore silence a finding.
func TestGolangciLintPlugin(t *testing.T) {
	integration(t)
	gcl := golangciBinary(t)

	// The findings on the e2e fixture are compared with the other
	// channels' in TestChannelsAgree; here, what only the plugin has.
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "e2e"), dir)

	// Settings: strict adds SL1005, disable drops rules, as the flags do.
	strict := strings.Replace(golangciConfig, "strict: false", "strict: true\n          disable: [sl1001, SL1101]", 1)
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(strict), 0o644); err != nil {
		t.Fatal(err)
	}
	_, got, _ := golangciFindings(t, gcl, dir)
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "passthru/passthru.go:12:9: RENAME keys cannot be resolved statically") {
		t.Errorf("strict: true did not add the SL1005 finding:\n%s", all)
	}
	if strings.Contains(all, "count:a") || strings.Contains(all, "{stats}") {
		t.Errorf("disable: [sl1001, SL1101] left their findings:\n%s", all)
	}

	// A bad setting stops golangci-lint with an error that names it.
	bad := strings.Replace(golangciConfig, "strict: false", "strict: false\n          disable: [SL9999]", 1)
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runIn(t, dir, gcl, "run", "./...")
	if code == 0 || !strings.Contains(stdout+stderr, `unknown rule "SL9999"`) || strings.Contains(stdout+stderr, "panic") {
		t.Errorf("unknown rule in settings: exit %d, want an error naming it\n%s%s", code, stdout, stderr)
	}
	// The error names the slotlint version compiled in, the one that
	// version --debug lists among the binary's modules (a "=>" line
	// after it gives the version of a replacement, "(devel)" for a clone).
	_, debug, _ := runIn(t, dir, gcl, "version", "--debug")
	built := ""
	slotlintDep := false
	for _, line := range strings.Split(debug, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "dep" && f[1] == "github.com/slotlint/slotlint":
			built, slotlintDep = f[2], true
		case len(f) >= 3 && f[0] == "=>" && slotlintDep:
			built = f[2]
		case len(f) > 0 && f[0] != "=>":
			slotlintDep = false
		}
	}
	if built == "" {
		t.Errorf("version --debug does not list github.com/slotlint/slotlint:\n%s", debug)
	} else if want := "slotlint " + built + `: disable names unknown rule "SL9999"`; !strings.Contains(stdout+stderr, want) {
		t.Errorf("unknown rule in settings: want the error %q\n%s%s", want, stdout, stderr)
	}

	// --fix applies the suggested {} fix, and both ways to silence one
	// finding hold: golangci-lint's nolint and slotlint's own directive.
	// One module holds both packages, so that the run after --fix checks
	// both: each run type-checks go-redis again, in a new directory.
	fixme := `package fixme

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Load(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, "user:"+id+":name", "user:"+id+":email")
}
`
	quiet := `package quiet

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Load(ctx context.Context, rdb *redis.Client) {
	rdb.MGet(ctx, "a:1", "b:1") //nolint:slotlint // one slot per key is fine here
	//slotlint:ignore SL1001 a standalone server
	rdb.MGet(ctx, "a:2", "b:2")
	rdb.MGet(ctx, "a:3", "b:3")
}
`
	fixDir := copyModule(t, map[string]string{"fixme/fixme.go": fixme, "quiet/quiet.go": quiet, ".golangci.yml": golangciConfig})
	if code, _, stderr := golangciFindings(t, gcl, fixDir, "--fix"); code != 0 && code != 1 {
		t.Fatalf("golangci-lint run --fix: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(fixDir, "fixme", "fixme.go"))
	if err != nil {
		t.Fatal(err)
	}
	if fixed := `rdb.MGet(ctx, "user:{"+id+"}:name", "user:{"+id+"}:email")`; !strings.Contains(string(b), fixed) {
		t.Fatalf("--fix did not apply the fix:\n%s", b)
	}
	// The silenced and the reported literal keys have no fix to apply.
	if b, err := os.ReadFile(filepath.Join(fixDir, "quiet", "quiet.go")); err != nil || string(b) != quiet {
		t.Fatalf("--fix changed quiet.go (%v):\n%s", err, b)
	}
	// After the fix, the only finding left is quiet.go's unsilenced line.
	code, got, stderr = golangciFindings(t, gcl, fixDir)
	if code != 1 || len(got) != 1 || !strings.HasPrefix(got[0], "quiet/quiet.go:13:") {
		t.Errorf("after --fix, with nolint and slotlint:ignore: exit %d, findings %v, want only quiet.go's line 13\n%s", code, got, stderr)
	}
}

// shadowRepo commits this checkout's working tree (tracked and untracked,
// not ignored files) to a new git repository, the state pre-commit must
// install: a hooks repository is taken at a commit.
func shadowRepo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	shadowRepoIn(t, dst)
	return dst
}

// shadowRepoIn is shadowRepo into the empty directory dst.
func shadowRepoIn(t *testing.T, dst string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dst, "init", "-q")
	git(t, dst, "add", "-A")
	// A fixed date makes the commit a function of the tree: a build
	// stamped with its revision and time (TestNewcomer's go install) is
	// then the same build for the same tree, and the go command takes its
	// link from the build cache.
	commit := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "working tree")
	commit.Dir = dst
	commit.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

var (
	preCommitOnce  sync.Once
	preCommitDir   string // removed by TestMain
	preCommitReady bool
)

// hookID is an entry of .pre-commit-hooks.yaml.
var hookID = regexp.MustCompile(`(?m)^- id: (\S+)$`)

// sharedPreCommit returns the .pre-commit-config.yaml and PRE_COMMIT_HOME
// that every run of pre-commit in the test binary uses: the config names
// every hook of this checkout's .pre-commit-hooks.yaml, from a commit of
// the working tree (shadowRepo), as a user's config names them from a
// tag. pre-commit install-hooks installs them once, a go install of
// slotlint in pre-commit's store, and every run reuses the installation
// for the same repository and revision. (pre-commit try-repo would
// install them again on every run, into a store of its own.)
func sharedPreCommit(t *testing.T) (config, home string) {
	t.Helper()
	preCommitOnce.Do(func() {
		dir, err := os.MkdirTemp("", "slotlint-precommit")
		if err != nil {
			t.Fatal(err)
		}
		preCommitDir = dir
		hooks := filepath.Join(dir, "hooks")
		for _, d := range []string{hooks, filepath.Join(dir, "home")} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		shadowRepoIn(t, hooks)
		rev, err := exec.Command("git", "-C", hooks, "rev-parse", "HEAD").Output()
		if err != nil {
			t.Fatal(err)
		}
		manifest, err := os.ReadFile(filepath.Join(hooks, ".pre-commit-hooks.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n", hooks, strings.TrimSpace(string(rev)))
		ids := hookID.FindAllSubmatch(manifest, -1)
		if len(ids) < 2 {
			t.Fatalf(".pre-commit-hooks.yaml: %d hooks, want slotlint's and slotlint-lua's", len(ids))
		}
		for _, id := range ids {
			cfg += "      - id: " + string(id[1]) + "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		// The hooks are installed here, before any run, with -trimpath:
		// pre-commit clones the hooks' repository into its own store, a
		// new directory in each test binary, and without -trimpath the go
		// command keys every package of this module by its directory, so
		// each test binary compiled them all again (BENCHMARKS.md, "How
		// long make test takes"). The runs themselves go without it: a
		// cgo file that go list hands slotlint from the build cache names
		// the directory it was first built in when built with -trimpath.
		install := exec.Command("pre-commit", "install-hooks", "--config", filepath.Join(dir, "config.yaml"), "--color=never")
		install.Dir = hooks
		install.Env = preCommitEnv(t, filepath.Join(dir, "home"), "-buildvcs=false -trimpath")
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("pre-commit install-hooks: %v\n%s", err, out)
		}
		preCommitReady = true
	})
	if !preCommitReady {
		t.Fatal("the shared hooks repository could not be made (see the first test that asked for it)")
	}
	return filepath.Join(preCommitDir, "config.yaml"), filepath.Join(preCommitDir, "home")
}

// preCommitEnv is the environment pre-commit runs in: its store under
// home, the go command's GOFLAGS as given. pre-commit gives go install a
// GOPATH of its own; the module cache stays the one this test runs with,
// so the hooks build from the modules already downloaded.
func preCommitEnv(t *testing.T, home, goflags string) []string {
	t.Helper()
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "GOWORK=off", "GOFLAGS="+goflags, "GOMODCACHE="+strings.TrimSpace(string(gomodcache)), "PRE_COMMIT_HOME="+home)
}

// preCommitRun returns a function that runs every hook of this checkout's
// .pre-commit-hooks.yaml with the real pre-commit (pre-commit run, the
// hooks installed by sharedPreCommit) on all files of a git repository,
// and returns the exit status and output.
func preCommitRun(t *testing.T) func(repo string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		missingTool(t, "pre-commit is not installed (apt-get install pre-commit)")
	}
	config, home := sharedPreCommit(t)
	env := preCommitEnv(t, home, "-buildvcs=false")
	return func(repo string) (int, string) {
		// --all-files checks what is committed and staged alike.
		cmd := exec.Command("pre-commit", "run", "--config", config, "--all-files", "--color=never", "--verbose")
		cmd.Dir = repo
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("pre-commit: %v", err)
		}
		return code, string(out)
	}
}

// TestPreCommitHooks: in a repository holding a bad and a good Go file and
// Lua script the hooks fail naming the bad ones' findings, then pass once
// they are fixed. (The findings on the e2e fixture are compared with the
// other channels' in TestChannelsAgree.)
func TestPreCommitHooks(t *testing.T) {
	integration(t)
	runHooks := preCommitRun(t)
	badLua := "local v = redis.call('GET', 'config:limit')\nreturn v\n"
	goodLua := "local v = redis.call('GET', KEYS[1])\nreturn v\n"
	badLuaFinding := `scripts/bad.lua:1:22: LUA201 GET key "config:limit" (slot 14853) is a literal, not passed in KEYS`

	t.Run("bad then fixed", func(t *testing.T) {
		badGo := `package app

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Counts(ctx context.Context, rdb *redis.Client) {
	rdb.MGet(ctx, "count:a", "count:b")
}
`
		goodGo := `package app

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Names(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, "user:{"+id+"}:name", "user:{"+id+"}:email")
}
`
		repo := copyModule(t, map[string]string{
			"app/bad.go": badGo, "app/good.go": goodGo,
			"scripts/bad.lua": badLua, "scripts/good.lua": goodLua,
		})
		git(t, repo, "init", "-q")
		git(t, repo, "add", "-A")
		code, out := runHooks(repo)
		if code == 0 {
			t.Fatalf("pre-commit run on bad files: exit 0, want failure\n%s", out)
		}
		for _, want := range []string{
			`app/bad.go:10:2: SL1001 MGET keys "count:a" (slot 9931) and "count:b" (slot 5800) are in different slots`,
			badLuaFinding,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("pre-commit output lacks %q:\n%s", want, out)
			}
		}
		for _, quiet := range []string{"good.go", "good.lua"} {
			if strings.Contains(out, quiet+":") {
				t.Errorf("pre-commit output reports %s:\n%s", quiet, out)
			}
		}
		fixes := map[string]string{
			"app/bad.go":      strings.Replace(badGo, `"count:a", "count:b"`, `"count:{a}", "count:{a}:b"`, 1),
			"scripts/bad.lua": goodLua,
		}
		for name, text := range fixes {
			if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git(t, repo, "add", "-A")
		if code, out := runHooks(repo); code != 0 {
			t.Errorf("pre-commit run after the fix: exit %d, want 0\n%s", code, out)
		}
	})
}
