package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewcomer follows the README as a new user would, in a fresh clone of
// this checkout (its working tree committed to a new repository): install
// from the clone, slotlint version, the quick start's two commands with
// the output the README shows, slotlint -h, a mistyped package path and an
// unknown rule flag, each with its expected text and exit status. (The
// README's `git clone https://...` needs the network and `make test` is the
// whole suite: neither is run here.)
func TestNewcomer(t *testing.T) {
	integration(t)
	shadow := shadowRepo(t)
	clone := newcomerDir(t, shadow)
	git(t, filepath.Dir(clone), "clone", "-q", shadow, clone)
	out, err := exec.Command("git", "-C", clone, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	revision := strings.TrimSpace(string(out))

	// Install: go install ./cmd/slotlint, onto a PATH of its own.
	bin := filepath.Join(t.TempDir(), "bin")
	t.Setenv("GOBIN", bin)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// This machine's GOFLAGS turn VCS stamping off; a user's default
	// (auto) stamps a build from a clone.
	if code, stdout, stderr := runIn(t, clone, "env", "GOFLAGS=-buildvcs=auto", "go", "install", "./cmd/slotlint"); code != 0 {
		t.Fatalf("go install ./cmd/slotlint: exit %d\n%s%s", code, stdout, stderr)
	}
	slotlint := filepath.Join(bin, "slotlint")

	// slotlint version: the build info of a build from a clone carries
	// its commit.
	code, stdout, stderr := runIn(t, clone, slotlint, "version")
	if code != 0 || !strings.HasPrefix(stdout, "slotlint v") || !strings.Contains(stdout, " revision "+revision) {
		t.Errorf("slotlint version: exit %d, want 0 and a module version with revision %s\n%s%s", code, revision, stdout, stderr)
	}

	// The quick start: its two commands print what the README shows.
	shop := filepath.Join(clone, "examples", "shop")
	for _, tt := range []struct {
		readme string
		args   []string
		code   int
	}{
		{"cd examples/shop && go tool slotlint ./...", []string{"tool", "slotlint", "./..."}, 3},
		{"go tool slotlint lua -keys-from-name lua", []string{"tool", "slotlint", "lua", "-keys-from-name", "lua"}, 1},
	} {
		code, stdout, stderr := runIn(t, shop, "go", tt.args...)
		if code != tt.code || stderr != "" {
			t.Errorf("%s: exit %d, want %d and nothing on stderr\n%s", tt.readme, code, tt.code, stderr)
		}
		got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(stdout, clone+string(filepath.Separator), ""), "\n"), "\n")
		if want := readmeBlock(t, tt.readme); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s prints\n%s\nREADME.md shows\n%s", tt.readme, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	// slotlint -h: the modes, then the flags.
	code, stdout, stderr = runIn(t, clone, slotlint, "-h")
	if code != 0 || !strings.HasPrefix(stdout+stderr, "slotlint finds Redis Cluster key-design bugs in Go code and Lua scripts.\n\nusage:\n  slotlint [flags] PACKAGES...") {
		t.Errorf("slotlint -h: exit %d\n%s%s", code, stdout, stderr)
	}

	// A mistyped path: the go command's error once, then what to do.
	code, stdout, stderr = runIn(t, clone, slotlint, "./nosuch/...")
	wantErr := "pattern ./nosuch/...: lstat ./nosuch/: no such file or directory\n" +
		"slotlint: check the package patterns: slotlint runs inside a Go module (a directory with go.mod, or below one) on patterns such as ./... or ./cmd/app\n"
	if code != 1 || stdout != "" || stderr != wantErr {
		t.Errorf("slotlint ./nosuch/...: exit %d, want 1\nstdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", code, stdout, stderr, wantErr)
	}

	// An unknown rule flag: one line with the rules there are, before any
	// package is loaded.
	code, stdout, stderr = runIn(t, clone, slotlint, "-slotlint.disable=SL1104,SL9999", "./...")
	if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 ||
		!strings.HasPrefix(stderr, `slotlint: -slotlint.disable names unknown rule "SL9999" (rules: SL1001,SL1002,`) || !strings.Contains(stderr, ",LUA201,") {
		t.Errorf("slotlint -slotlint.disable=SL1104,SL9999 ./...: exit %d, want 2 and one line listing the rules\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// newcomerDir is where TestNewcomer clones the checkout: a directory named
// by the committed tree's hash, removed when the test ends. The go command
// keys each package it compiles outside the module cache by its directory,
// so a clone at a new path compiled the whole module twice on every run
// (go install, then go tool in examples/shop); at the same path, the same
// tree takes both from the build cache on the next run. A directory already
// there (a run of the same tree at the same time, or one that was killed)
// gives way to a temporary one: slower, the same test.
func newcomerDir(t *testing.T, repo string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD^{tree}").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD^{tree}: %v", err)
	}
	tree := strings.TrimSpace(string(out))
	parent := filepath.Join(os.TempDir(), "slotlint-newcomer-"+tree[:min(16, len(tree))])
	if err := os.Mkdir(parent, 0o755); err != nil {
		t.Logf("cloning into a temporary directory: %v", err)
		return filepath.Join(t.TempDir(), "slotlint")
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(parent); err != nil {
			t.Error(err)
		}
	})
	return filepath.Join(parent, "slotlint")
}

// TestNewcomerDir: the clone's directory is named by the tree, a second
// test of the same tree while the first holds it gets a directory of its
// own, and the named one is gone when the test that made it ends.
func TestNewcomerDir(t *testing.T) {
	// The file names the directory, so the tree is this run's alone: a
	// test binary running this test at the same time, or a directory a
	// killed run left, does not hold its name.
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte(repo+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "one file")
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD^{tree}").Output()
	if err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(os.TempDir(), "slotlint-newcomer-"+string(out[:16]), "slotlint")
	t.Run("first", func(t *testing.T) {
		if got := newcomerDir(t, repo); got != named {
			t.Fatalf("newcomerDir = %s, want %s", got, named)
		}
		t.Run("same tree meanwhile", func(t *testing.T) {
			if got := newcomerDir(t, repo); got == named || !strings.HasSuffix(got, string(filepath.Separator)+"slotlint") {
				t.Errorf("newcomerDir = %s, want a temporary directory's slotlint, not %s", got, named)
			}
		})
	})
	if _, err := os.Stat(filepath.Dir(named)); !os.IsNotExist(err) {
		t.Errorf("%s after the test that made it: %v, want it removed", filepath.Dir(named), err)
	}
}
