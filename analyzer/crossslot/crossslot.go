package crossslot

import (
	_ "embed"
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1001, SL1002 and SL1005.
var Analyzer = &analysis.Analyzer{
	Name:     "crossslot",
	Doc:      analyzerdoc.MustExtract(doc, "crossslot"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/crossslot",
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	r := report.New(pass, cfg, rules.Of("crossslot")...)
	if len(res.Calls) == 0 || !r.Enabled(rules.Of("crossslot")...) {
		return nil, nil
	}
	for _, call := range res.Calls {
		companions(pass, r, res, cfg, call)
		if !call.MultiKey {
			continue
		}
		if call.SplitBySlot && redisapi.MultiShard[call.Command] {
			continue // a read split per slot: nothing to lose
		}
		keys := slotcheck.Expand(res.Keys, call.Keys)
		opaque := false
		if len(keys) >= 2 {
			o := slotcheck.Relate(call.Command, keys, cfg.Slot)
			opaque = o.Opaque
			switch {
			case call.Script || o.Opaque: // scripts are scriptkeys' to judge
			case call.SplitBySlot && o.Kind != slot.SameSlot:
				r.Report(splitRule(o.Kind), call.Node, fixFor(pass, res, call, keys), "%s", splitMessage(call.Command, o, cfg.Slot))
				continue
			case o.Kind == slot.DifferentSlots:
				r.Report(rules.SlotsDiffer, call.Node, nil, "%s", o.Message)
				continue
			case o.Kind == slot.Unknown:
				r.Report(rules.NoCommonTag, call.Node, fixFor(pass, res, call, keys), "%s", o.Message)
				continue
			}
		}
		if !call.Complete || opaque {
			r.Report(rules.UnresolvedKeys, call.Node, nil, "%s keys cannot be resolved statically (%s), so their slots are unchecked",
				call.Command, unresolved(call))
		}
	}
	return nil, nil
}

// unresolved names what was not followed.
func unresolved(call *redisapi.Call) string {
	if len(call.Keys) == 0 {
		return "no key could be followed"
	}
	var names, whole []string
	for _, k := range call.Keys {
		names = append(names, k.Key.String())
		if !k.Key.HasHoles() || hasLiteral(k.Key) {
			continue
		}
		whole = append(whole, k.Key.String())
	}
	if call.Complete {
		verb := "is"
		if len(whole) > 1 {
			verb = "are"
		}
		return fmt.Sprintf("%s %s built elsewhere", strings.Join(whole, ", "), verb)
	}
	return fmt.Sprintf("only %s known", strings.Join(names, ", "))
}

func hasLiteral(k slot.Key) bool {
	for _, p := range k.Parts() {
		if p.Hole == nil {
			return true
		}
	}
	return false
}

// splitRule is the rule of keys that a splitting client sends to several
// slots: SL1001 when their slots are known to differ.
func splitRule(k slot.RelationKind) string {
	if k == slot.DifferentSlots {
		return rules.SlotsDiffer
	}
	return rules.NoCommonTag
}

// splitMessage words the finding for a write that the client splits per
// slot: Redis never sees the keys together, so there is no CROSSSLOT, but
// the command is no longer atomic.
func splitMessage(cmd string, o slotcheck.Outcome, opts slot.Options) string {
	rel := "share no hash tag"
	if o.Kind == slot.DifferentSlots {
		rel = "are in different slots"
	}
	return fmt.Sprintf("%s keys %s and %s %s: this cluster client follows the server's request policies (NewDynamicResolver) and sends one %s per slot, so no CROSSSLOT, but the write is not atomic: another client can see some keys changed and not the others",
		cmd, slotcheck.Describe(o.A, opts), slotcheck.Describe(o.B, opts), rel, cmd)
}
