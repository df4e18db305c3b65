package main

import (
	"fmt"
	"io"
	"sort"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/sarif"
)

// runAnalyzerSARIF runs the analyzers over packages and prints SARIF.
// Like -json, it exits 0 when it could analyze, whatever it found.
func runAnalyzerSARIF(patterns []string, tests bool, stdout, stderr io.Writer) int {
	pkgs, status := loadPackages(patterns, tests, stderr) // load.go
	if pkgs == nil {
		return status
	}
	graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return exitNoLoad
	}
	if analysisFailed(graph, stderr) {
		status = exitNoLoad
	}
	var found []sarif.Finding
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			f := sarif.FromDiagnostic(act.Package.Fset, d)
			// A package and its test variant share files: report once.
			key := fmt.Sprintf("%s:%d:%d:%s:%s", f.File, f.Line, f.Col, f.Rule, f.Message)
			if !seen[key] {
				seen[key] = true
				found = append(found, f)
			}
		}
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	// Lua findings of scripts held in Go code are reported under LUA IDs.
	if err := sarif.Write(stdout, append(sarif.GoRules(), sarif.LuaRules()...), found); err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return 1
	}
	return status
}
