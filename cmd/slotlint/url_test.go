package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/ruleurl"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// TestDiagnosticURLs: every finding on the e2e module, and a Lua finding
// in a script held in Go code, links to its rule's page, and that page
// exists in docs/rules.
func TestDiagnosticURLs(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "e2e"), dir)
	script := `package lua

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var limit = redis.NewScript("return redis.call('GET', 'config:limit')")

func Limit(ctx context.Context, rdb *redis.Client, id string) {
	limit.Run(ctx, rdb, []string{"user:{" + id + "}"})
}
`
	if err := os.MkdirAll(filepath.Join(dir, "lua"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lua", "lua.go"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := suitetest.Load(t, suitetest.Config{Dir: dir, Patterns: []string{"./..."}})
	res := suitetest.Run(t, prog, analyzer.Analyzers()...)
	n := 0
	categories := map[string]bool{}
	for _, d := range res.Findings {
		n++
		categories[d.Category] = true
		if d.URL != ruleurl.For(d.Category) {
			t.Errorf("%s finding %q has URL %q, want %q", d.Category, d.Message, d.URL, ruleurl.For(d.Category))
		}
		doc := filepath.Join("..", "..", "docs", "rules", strings.TrimPrefix(d.URL, ruleurl.Base))
		if _, err := os.Stat(doc); err != nil {
			t.Errorf("%s: no doc at %s: %v", d.Category, doc, err)
		}
	}
	if n == 0 {
		t.Fatal("no findings on testdata/e2e")
	}
	if !categories["LUA201"] {
		t.Errorf("no LUA201 finding for the script held in Go code; categories: %v", categories)
	}
}
