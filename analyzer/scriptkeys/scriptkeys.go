package scriptkeys

import (
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1004 and SL1203.
var Analyzer = &analysis.Analyzer{
	Name:     "scriptkeys",
	Doc:      "report script calls whose keys are not in one slot, or that pass no keys\n\nRules: SL1004, SL1203.",
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, redisapi.Analyzer, luascript.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/scriptkeys",
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	r := report.New(pass, cfg, "SL1004", "SL1203")
	if len(res.Calls) == 0 || !r.Enabled("SL1004", "SL1203") {
		return nil, nil
	}
	scripts := pass.ResultOf[luascript.Analyzer].(*luascript.Result)
	for _, call := range res.Calls {
		if !call.Script {
			continue
		}
		if call.Complete && len(call.Keys) == 0 {
			if scripts.TouchesNoKey(call.Node) {
				continue // any master runs it the same
			}
			r.Report("SL1203", call.Node, nil, "%s called with zero keys: a cluster client sends it to an arbitrary master", call.Method)
			continue
		}
		keys := slotcheck.Expand(res.Keys, call.Keys)
		if len(keys) < 2 {
			continue
		}
		if o := slotcheck.Relate(call.Command, keys, cfg.Slot); o.Kind != slot.SameSlot && !o.Opaque {
			r.Report("SL1004", call.Node, nil, "%s", o.Message)
		}
	}
	return nil, nil
}
