package luascript_test

import (
	"path/filepath"
	"strings"
	"testing"

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
	// The package exists only in the overlay: a directory of the test
	// module that holds no file on disk.
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	prog := suitetest.Load(t, suitetest.Config{
		Dir:      dir,
		Patterns: []string{"./big"},
		Overlay:  map[string][]byte{filepath.Join(dir, "big", "big.go"): []byte(src)},
	})
	suitetest.Run(t, prog, luascript.Analyzer).CheckWants(t, luascript.Analyzer, "./big")
}

// TestImportedScripts: scripts held in another package's exported
// variables are checked at each call, from the facts of that package.
func TestImportedScripts(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), luascript.Analyzer, "./scriptuse")
}
