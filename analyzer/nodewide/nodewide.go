package nodewide

import (
	_ "embed"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// Analyzer reports SL1006.
var Analyzer = &analysis.Analyzer{
	Name:     "nodewide",
	Doc:      analyzerdoc.MustExtract(doc, "nodewide"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/nodewide",
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

// effects says, for each command, what a cluster client that sends it to
// one master does to the caller; spread: a client that follows the
// server's request policies sends it to every master instead; ringOnly:
// a cluster client sends it to every master (DBSIZE, summed), a Ring to
// one shard.
var effects = map[string]struct {
	effect   string
	spread   bool
	ringOnly bool
}{
	"KEYS":            {"returns the keys of that master only", false, false},
	"SCAN":            {"walks the keys of that master only, with that master's cursor", false, false},
	"FLUSHDB":         {"empties that master only", true, false},
	"FLUSHALL":        {"empties that master only", true, false},
	"FUNCTION LOAD":   {"loads the library on that master only: FCALL fails with \"Function not found\" for keys of the others", false, false},
	"FUNCTION DELETE": {"deletes the library on that master only: the others keep serving its functions", false, false},
	"FUNCTION FLUSH":  {"deletes the libraries of that master only: the others keep serving their functions", false, false},
	"CONFIG SET":      {"sets the parameter on that master only: the other masters keep their own value", false, false},
	"DBSIZE":          {"counts the keys of that master only", false, true},
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	r := report.New(pass, cfg, rules.OneMaster)
	if !r.Enabled(rules.OneMaster) {
		return nil, nil
	}
	for _, c := range res.Calls {
		e, ok := effects[c.Command]
		if !ok || !c.NodeWide || c.Reach == redisapi.ReachUnknown || (e.spread && c.FollowsPolicies) || (e.ringOnly && c.Reach != redisapi.ReachRing && c.Reach != redisapi.ReachMaybeRing) {
			continue
		}
		if (c.Reach == redisapi.ReachMaybeCluster || c.Reach == redisapi.ReachMaybeRing) && strings.HasSuffix(pass.Fset.Position(c.Node.Pos()).Filename, "_test.go") {
			// A test's UniversalClient, Cmdable or Ring is, as tests
			// are set up, a client of one test server that it empties
			// or lists between cases; a test that builds a cluster
			// client, or a Ring of several servers, is reported.
			continue
		}
		if c.Reach == redisapi.ReachRing || c.Reach == redisapi.ReachMaybeRing {
			r.Report(rules.OneMaster, c.Node, nil,
				"%s has no key: this Ring sends it to one shard it picks, and it %s (run it on each shard with ForEachShard)",
				c.Command, strings.ReplaceAll(e.effect, "master", "shard"))
			continue
		}
		client := "cluster client"
		if c.Reach == redisapi.ReachMaybeCluster {
			client = "client, when it is a cluster client,"
		}
		r.Report(rules.OneMaster, c.Node, nil,
			"%s has no key: this %s sends it to one master it picks, and it %s (run it on each master with ForEachMaster)",
			c.Command, client, e.effect)
	}
	return nil, nil
}
