package txslot

import (
	_ "embed"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1003.
var Analyzer = &analysis.Analyzer{
	Name:     "txslot",
	Doc:      analyzerdoc.MustExtract(doc, "txslot"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/txslot",
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	r := report.New(pass, cfg, rules.TxSlots)
	if len(res.Txs) == 0 || !r.Enabled(rules.TxSlots) {
		return nil, nil
	}
	for _, tx := range res.Txs {
		// Commands that never share a run (two branches of an if) never
		// share a transaction: each run's keys are related apart (a
		// finding two runs share is reported once, as any repeat is).
		for _, run := range tx.SlotKeyRuns() {
			check(r, res.Keys, cfg, tx, run)
		}
	}
	return nil, nil
}

// check relates the keys one run of tx queues, the first key of each
// command standing for the command: a command whose own keys disagree is
// crossslot's finding.
func check(r *report.Reporter, x *keyexpr.Extractor, cfg *config.Config, tx *redisapi.Tx, run []keyexpr.Elem) {
	keys := slotcheck.Expand(x, run)
	if len(keys) < 2 {
		return
	}
	o := slotcheck.Relate(tx.Method+" transaction", keys, cfg.Slot)
	if o.Kind == slot.SameSlot {
		return
	}
	at, msg := analysis.Range(tx.Node), o.Message
	if o.Opaque {
		k, ok := perElement(x, keys)
		if !ok || !mayBeCluster(tx) {
			return
		}
		at = k.Expr
		msg = fmt.Sprintf("%s transaction queues a command per element: keys %s and %s share a slot only if every key carries one hash tag, which nothing here shows (CROSSSLOT risk on a cluster)",
			tx.Method, slotcheck.Describe(slotcheck.Key{Elem: k.Elem}, cfg.Slot), slotcheck.Describe(k, cfg.Slot))
	} else if o.B.Expr != nil {
		at = o.B.Expr
	}
	r.Report(rules.TxSlots, at, nil, "%s", msg)
}

// perElement finds a key queued once per loop iteration that is a whole
// value (keys[i], a range variable): each iteration may queue another
// slot, as a cache client's loop over the keys it was given does.
func perElement(x *keyexpr.Extractor, keys []slotcheck.Key) (slotcheck.Key, bool) {
	for _, k := range keys {
		if !k.Again || k.Expr == nil {
			continue
		}
		if _, ok := k.Key.SoleHole(); !ok {
			continue
		}
		// keys[0] read in a loop is one key; keys[i] is one per element.
		if ix, ok := ast.Unparen(k.Expr).(*ast.IndexExpr); ok {
			idx := x.Key(ix.Index)
			if x.Vary(idx, k.Loop).Equal(idx) {
				continue
			}
		}
		return k, true
	}
	return slotcheck.Key{}, false
}

// mayBeCluster reports whether the transaction runs on a client that may
// be a cluster client: anything but a client of one server, where every
// slot is served.
func mayBeCluster(tx *redisapi.Tx) bool { return !tx.OneNode }
