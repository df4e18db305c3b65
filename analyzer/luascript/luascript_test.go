package luascript_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestLuascript(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), luascript.Analyzer, "./luascript")
}

// TestCategories: each finding is reported under its own rule ID: SL1201,
// or the Lua checker's LUA ID.
func TestCategories(t *testing.T) {
	want := map[string]string{
		"while loop never ends":                 "LUA101",
		"compared with nil":                     "LUA303",
		"global print does not exist":           "LUA302",
		"comes from ARGV":                       "LUA201",
		`":lock" (lua/derived.lua:3)`:           "LUA202",
		`"global:counter"`:                      "LUA201",
		"the script reads KEYS[2]":              "SL1201",
		"lua/bytes.lua:2:10: arithmetic (+) on": "LUA304",
	}
	seen := map[string]bool{}
	for _, d := range suitetest.Wants(t, filepath.Join("..", "testdata"), luascript.Analyzer, "./luascript").Findings {
		for frag, id := range want {
			if strings.Contains(d.Message, frag) {
				seen[frag] = true
				if d.Category != id {
					t.Errorf("%q: category %s, want %s", d.Message, d.Category, id)
				}
			}
		}
	}
	for frag := range want {
		if !seen[frag] {
			t.Errorf("no diagnostic containing %q", frag)
		}
	}
}

// TestOversizedScript: a script built of more text than the Lua checker
// reads is one finding, and gathering it stops at the limit however often
// a constant is repeated.
func TestOversizedScript(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// 64 times a 1 MiB constant: 64 MiB if it were all gathered.
	expr := strings.TrimSuffix(strings.Repeat("pad + ", 64), " + ")
	src := `package big

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const pad = "-- ` + strings.Repeat("x", 1<<20) + `\n"

var s = redis.NewScript(` + expr + `) // want "^script cannot be checked: its text is over the size limit \\(4194304 bytes\\)$"

func f(rdb *redis.Client) { s.Run(context.Background(), rdb, []string{"k"}) }
`
	if err := os.MkdirAll(filepath.Join(dir, "big"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big", "big.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, luascript.Analyzer, "./big")
}

// TestImportedScripts: scripts held in another package's exported
// variables are checked at each call, from the facts of that package.
func TestImportedScripts(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), luascript.Analyzer, "./scriptuse")
}
