package scriptkeys

import (
	_ "embed"
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1004 and SL1203.
var Analyzer = &analysis.Analyzer{
	Name:     "scriptkeys",
	Doc:      analyzerdoc.MustExtract(doc, "scriptkeys"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer, luascript.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/scriptkeys",
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	r := report.New(pass, cfg, rules.ScriptKeySlots, rules.NoScriptKeys)
	if len(res.Calls) == 0 || !r.Enabled(rules.ScriptKeySlots, rules.NoScriptKeys) {
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
			r.Report(rules.NoScriptKeys, call.Node, nil, "%s called with zero keys: a cluster client sends it to an arbitrary master", call.Method)
			continue
		}
		keys := slotcheck.Expand(res.Keys, call.Keys)
		if len(keys) < 2 {
			continue
		}
		if o := slotcheck.Relate(call.Command, keys, cfg.Slot); o.Kind != slot.SameSlot && !o.Opaque {
			r.Report(rules.ScriptKeySlots, call.Node, nil, "%s", o.Message)
		}
	}
	return nil, nil
}
