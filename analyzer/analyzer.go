// Package analyzer is slotlint's suite of go/analysis analyzers for Go code
// that talks to Redis through go-redis (v9, v8), redigo, rueidis or
// valkey-go.
//
// Layout, one hop to anything:
//
//   - rules: the catalogue of rule IDs with their documentation;
//   - config: every setting, as the flags of one analyzer ("slotlint")
//     whose Result the rule analyzers read;
//   - report: how rules report (Category = ID, suppression, generated
//     files), from the comments internal/directives reads once per
//     package;
//   - crossslot (SL1001, SL1002, SL1005), nodewide (SL1006), txslot (SL1003), scriptkeys
//     (SL1004, SL1203), hashtag (SL1101-SL1105): one package per rule
//     family, each with doc.go and an analysistest suite whose cases live
//     in testdata/<family>; lockcheck (SL1301-SL1305), one file per
//     rule, for hand-rolled locks, lost updates and counters; luascript (SL1201,
//     SL1202) for Lua scripts held in Go and their calls;
//   - internal/keyexpr: Go expressions to symbolic keys (slot.Key), with
//     key-builder facts across packages, and the index of the package's
//     function declarations every analyzer reads (TestLayering);
//   - internal/redisapi: Redis calls as "command + keys" records (with
//     SET's options, values, fields, ARGV) and the scripts a package
//     makes, the only thing rules read; one front end per client library
//     (goredis.go, redigo.go, rueidis.go, listed in frontends.go), and a
//     new client is a new front end there. Rules switch on the command
//     and the records' fields (the value a call is sent on, a
//     transaction's client, which method of a reply is read), never on a
//     client's method or type names (TestLayering);
//   - internal/slotcheck: relating the keys of one command, transaction or
//     script call, and the wording of the finding;
//   - groundtruth: the rules' labels checked against a real cluster.
//
// Adding a Go rule takes these steps; the test named after each fails
// until it is done:
//
//  1. In rules, a constant for its ID and a catalogue entry with Title,
//     What, Why, Bad, Good and Fix, naming its analyzer (rules
//     TestCatalogue). Code names the rule by the constant, never by its
//     text (rules TestRulesNamedByConstant).
//  2. For a new family, copy the smallest rule package (txslot): its
//     doc.go has a "# Analyzer NAME" section that names each of its rule
//     IDs, and Doc is analyzerdoc.MustExtract(doc, NAME) (rules
//     TestCatalogue, TestRulesNamedByConstant); add the analyzer to
//     Analyzers (TestCatalogue). Require config, directives and redisapi
//     as txslot does, read the redisapi Result and report through
//     report.Reporter, which refuses an ID the catalogue lacks.
//  3. testdata/<family> cases with // want lines, reported and silent:
//     the package's analysistest suite checks every finding exactly.
//  4. go generate ./docs/rules writes its page and the table (docs/rules
//     TestDocsMatchCode, TestEveryRuleHasADoc).
//  5. One planted finding in examples/shop, with a comment naming the ID
//     at most 10 lines above it, and its row "| ID | `file`" in
//     examples/shop/README.md (cmd/slotlint TestExampleShowsEveryRule);
//     the quick start output in README.md then changes with it
//     (TestReadmeQuickStart). A rule the example cannot show goes in
//     exampleExceptions, with the reason under "What the example cannot
//     show" in examples/shop/README.md.
//
// The SARIF rule metadata and the -slotlint.disable flag read the
// catalogue and need no step.
package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/hashtag"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/nodewide"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// Analyzers returns the suite: the settings analyzer (it carries the flags)
// and every rule analyzer.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		config.Analyzer,
		crossslot.Analyzer,
		nodewide.Analyzer,
		txslot.Analyzer,
		scriptkeys.Analyzer,
		hashtag.Analyzer,
		lockcheck.Analyzer,
		luascript.Analyzer,
	}
}

// FactAnalyzers returns the analyzers whose facts importing packages read:
// all go vet needs to run on a package it analyzes only as a dependency.
// (unitchecker would run every analyzer that requires one of them too,
// though their findings there are dropped.)
func FactAnalyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{keyexpr.Analyzer, luascript.ScriptFacts}
}

// IsClientPackage reports whether path is a Redis client library's own
// package: no rule checks it and it has no facts, so a driver needs only
// its types.
func IsClientPackage(path string) bool { return redisapi.IsClientPackage(path) }
