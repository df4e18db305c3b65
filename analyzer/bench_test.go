package analyzer_test

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
)

// BenchmarkAnalyzer runs the whole suite, as slotlint ./... does, over the
// 11 packages of the analyzer's test module (every rule's cases, about 150
// Redis calls) and their 200 dependencies, go-redis and the standard library included,
// since key-builder facts are computed for every dependency. Loading and
// type-checking happen once, outside the timed loop.
func BenchmarkAnalyzer(b *testing.B) {
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  "testdata",
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("packages have errors")
	}
	analyzers := analyzer.Analyzers()
	b.ReportAllocs()
	for b.Loop() {
		g, err := checker.Analyze(analyzers, pkgs, nil)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for act := range g.All() {
			if act.Err != nil {
				b.Fatal(act.Err)
			}
			n += len(act.Diagnostics)
		}
		if n == 0 {
			b.Fatal("no diagnostics: the suite did not run")
		}
	}
}
