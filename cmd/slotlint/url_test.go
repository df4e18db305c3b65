package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/ruleurl"
)

// TestDiagnosticURLs: every finding on the e2e module links to its rule's
// page, and that page exists in docs/rules.
func TestDiagnosticURLs(t *testing.T) {
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join("..", "..", "testdata", "e2e"),
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GO111MODULE=on"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			n++
			if d.URL != ruleurl.For(d.Category) {
				t.Errorf("%s finding %q has URL %q, want %q", d.Category, d.Message, d.URL, ruleurl.For(d.Category))
			}
			doc := filepath.Join("..", "..", "docs", "rules", strings.TrimPrefix(d.URL, ruleurl.Base))
			if _, err := os.Stat(doc); err != nil {
				t.Errorf("%s: no doc at %s: %v", d.Category, doc, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no findings on testdata/e2e")
	}
}
