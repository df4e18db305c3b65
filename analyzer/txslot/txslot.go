package txslot

import (
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1003.
var Analyzer = &analysis.Analyzer{
	Name:     "txslot",
	Doc:      "report MULTI/EXEC and WATCH across keys of several slots\n\nRedis Cluster aborts such transactions (CROSSSLOT, EXECABORT). Rule: SL1003.",
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, redisapi.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/txslot",
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	r := report.New(pass, cfg, "SL1003")
	if len(res.Txs) == 0 || !r.Enabled("SL1003") {
		return nil, nil
	}
	for _, tx := range res.Txs {
		// One key per queued command stands for the command: a command
		// whose own keys disagree is crossslot's finding.
		keys := slotcheck.Expand(res.Keys, tx.Watched)
		for _, call := range tx.Calls {
			if len(call.Keys) == 0 {
				continue
			}
			first := call.Keys[0]
			if first.Loop == nil && call.Loop != nil {
				first = keyexpr.Elem{Key: first.Key, Expr: first.Expr, Loop: call.Loop}
			}
			keys = append(keys, slotcheck.Expand(res.Keys, []keyexpr.Elem{first})...)
		}
		if len(keys) < 2 {
			continue
		}
		o := slotcheck.Relate(tx.Method+" transaction", keys, cfg.Slot)
		if o.Kind == slot.SameSlot || o.Opaque {
			continue
		}
		at := analysis.Range(tx.Node)
		if o.B.Expr != nil {
			at = o.B.Expr
		}
		r.Report("SL1003", at, nil, "%s", o.Message)
	}
	return nil, nil
}
