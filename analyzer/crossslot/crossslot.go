package crossslot

import (
	_ "embed"
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/callers"
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
	var ix *callers.Index
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
			fixKeys, where := keys, ""
			if o.Opaque && !call.Script {
				// Keys a helper is given whole: judge them with what each
				// of its callers passes.
				if ix == nil {
					ix = callers.New(pass, res.Keys)
				}
				if bad, judged := atCallers(ix, call.Node.Pos(), call.Command, keys, cfg.Slot); judged {
					if bad == nil {
						if call.Complete {
							continue // every caller passes keys of one slot
						}
					} else {
						o, opaque, fixKeys = bad.outcome, false, nil
						where = "; " + bad.bound.Describe(pass.Fset, bad.key)
					}
				}
			}
			switch {
			case call.Script || o.Opaque: // scripts are scriptkeys' to judge
			case call.SplitBySlot && o.Kind != slot.SameSlot:
				r.Report(splitRule(o.Kind), call.Node, fixFor(pass, res, call, fixKeys), "%s%s", splitMessage(call.Command, o, cfg.Slot), where)
				continue
			case o.Kind == slot.DifferentSlots:
				r.Report(rules.SlotsDiffer, call.Node, nil, "%s%s", o.Message, where)
				continue
			case o.Kind == slot.Unknown:
				r.Report(rules.NoCommonTag, call.Node, fixFor(pass, res, call, fixKeys), "%s%s", o.Message, where)
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

// callerOutcome is a helper's keys related as one of its callers passes
// them, and the key whose parameter names that call.
type callerOutcome struct {
	outcome slotcheck.Outcome
	bound   callers.Bound
	key     slot.Key
}

// atCallers relates keys that a helper is given whole (its parameters) at
// every call of the helper, and returns the first call whose keys may be
// in different slots. judged is false when the keys are not the helper's
// parameters, when not every call is in sight, or when some caller passes
// keys it is given whole in turn: those stay unresolved (SL1005).
func atCallers(ix *callers.Index, at token.Pos, cmd string, keys []slotcheck.Key, opts slot.Options) (bad *callerOutcome, judged bool) {
	plain := make([]slot.Key, len(keys))
	for i, k := range keys {
		plain[i] = k.Key
	}
	undecided := false
	judged = ix.Each(at, plain, func(b callers.Bound) bool {
		if b.Unbound {
			undecided = true
			return false
		}
		bound := make([]slotcheck.Key, len(keys))
		for i, k := range keys {
			bound[i] = k
			bound[i].Key = b.Subst(k.Key)
		}
		o := slotcheck.Relate(cmd, bound, opts)
		switch {
		case o.Kind == slot.SameSlot:
			return true
		case o.Opaque:
			undecided = true
			return false
		}
		key := o.A.Key
		for _, k := range keys {
			if param, _ := b.ParamOf(k.Key); param != "" {
				key = k.Key
				break
			}
		}
		bad = &callerOutcome{outcome: o, bound: b, key: key}
		return false
	})
	if !judged || undecided {
		return nil, false
	}
	return bad, true
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
