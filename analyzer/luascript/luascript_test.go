package luascript_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/luascript"
)

func TestLuascript(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "testdata"), luascript.Analyzer, "./luascript")
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
	for _, r := range analysistest.Run(t, filepath.Join("..", "testdata"), luascript.Analyzer, "./luascript") {
		for _, d := range r.Diagnostics {
			for frag, id := range want {
				if strings.Contains(d.Message, frag) {
					seen[frag] = true
					if d.Category != id {
						t.Errorf("%q: category %s, want %s", d.Message, d.Category, id)
					}
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
