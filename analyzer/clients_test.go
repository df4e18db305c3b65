package analyzer_test

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// clientCase is one rule's `// want` cases in a client test module.
type clientCase struct {
	analyzer *analysis.Analyzer
	dirs     []string
}

// clientSuites are the test modules under testdata/clients, each pinned to
// one client library so the main module depends on none of them: for each,
// the rules' cases (checked against their `// want` comments) and clean
// code on which no analyzer of the suite may report.
var clientSuites = []struct {
	module string
	cases  []clientCase
	clean  string
}{
	{
		// go-redis v8.11.5: the v9 API under another import path.
		module: "goredisv8",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot"}},
			{txslot.Analyzer, []string{"./txslot"}},
			{scriptkeys.Analyzer, []string{"./scriptkeys"}},
			{luascript.Analyzer, []string{"./luascript"}},
		},
		clean: "./clean",
	},
	{
		// redigo command lines, transactions and scripts; the clean code
		// has pipelines, other connections, commands after EXEC and shared
		// tags.
		module: "redigo",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot"}},
			{txslot.Analyzer, []string{"./txslot"}},
			{scriptkeys.Analyzer, []string{"./scriptkeys"}},
			{luascript.Analyzer, []string{"./luascript"}},
			{lockcheck.Analyzer, []string{"./lockcheck"}},
		},
		clean: "./clean",
	},
	{
		// rueidis v1.0.79; compat and compattx use rueidiscompat, read as
		// go-redis.
		module: "rueidis",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot", "./compat"}},
			{txslot.Analyzer, []string{"./txslot", "./compattx"}},
			{scriptkeys.Analyzer, []string{"./scripts"}},
			{luascript.Analyzer, []string{"./lua"}},
			{lockcheck.Analyzer, []string{"./lockcheck"}},
		},
		clean: "./clean",
	},
	{
		// valkey-go v1.0.79, which shares rueidis's front end.
		module: "valkey",
		cases: []clientCase{
			{crossslot.Analyzer, []string{"./crossslot"}},
			{txslot.Analyzer, []string{"./txslot"}},
			{scriptkeys.Analyzer, []string{"./scripts"}},
			{luascript.Analyzer, []string{"./lua"}},
			{lockcheck.Analyzer, []string{"./lockcheck"}},
		},
		clean: "./clean",
	},
}

// TestClients runs the whole suite once over each client test module,
// loaded once, and checks each rule's cases and the clean code. (One
// analysistest.Run per rule would type-check the client library and the
// standard library from source once per rule.)
func TestClients(t *testing.T) {
	for _, s := range clientSuites {
		t.Run(s.module, func(t *testing.T) {
			patterns := []string{s.clean}
			for _, c := range s.cases {
				patterns = append(patterns, c.dirs...)
			}
			slices.Sort(patterns)
			prog := suitetest.Load(t, suitetest.Config{
				Dir:      filepath.Join("testdata", "clients", s.module),
				Patterns: patterns,
			})
			res := suitetest.Run(t, prog, analyzer.Analyzers()...)
			for _, c := range s.cases {
				t.Run(c.analyzer.Name, func(t *testing.T) {
					res.CheckWants(t, c.analyzer, c.dirs...)
				})
			}
			t.Run("clean", func(t *testing.T) {
				res.Silent(t, s.clean)
			})
		})
	}
}
