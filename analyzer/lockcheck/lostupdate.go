package lockcheck

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// lostUpdate reports SL1304: a GET (HGET) then a SET (HSET) of the same key
// (and field) whose value, or whether it happens at all, depends on what was
// read, with no WATCH or script around them. Two clients interleaving
// read, read, write, write lose the first client's update.
func (c *checker) lostUpdate() {
	if !c.r.Enabled(rules.LostUpdate) {
		return
	}
	for _, f := range c.fns {
		for _, r := range f.all {
			if r.kind != read || !(r.direct() || r.returned) || inWatch(r) || onTx(r) || underLock(f, r) {
				continue
			}
			var t *taint
			for _, w := range f.all {
				if w.kind != write || inWatch(w) || !w.key.Equal(r.key) || (r.field == nil) != (w.field == nil) {
					continue
				}
				if r.field != nil && !r.fkey.Equal(w.fkey) {
					continue
				}
				if !f.before(r.at, w.at) || otherClient(r, w) || !c.sameKeyAfter(f, r, w) {
					continue
				}
				if t == nil {
					t = newTaint(f, r.at)
				}
				byValue := w.value != nil && t.mentions(w.value)
				if !byValue && (onlyNextIteration(f, r, w) || !f.decidedBy(r.at, w.at, t.decides)) {
					continue
				}
				c.r.Report(rules.LostUpdate, w.at, nil, "%s", lostUpdateMessage(r, w, byValue, byValue && arithmetic(c.x.Origin(w.value), t)))
			}
		}
	}
}

// sameKeyAfter reports whether the write can hit the key the read read:
// when the write follows the read only in a later iteration of a loop
// around both, its key is the one that iteration builds, which differs
// when the key is made from values that change per iteration.
func (c *checker) sameKeyAfter(f *fn, r, w *event) bool {
	loop := f.loopAround(r.at, w.at)
	if loop == nil || f.beforeInIteration(r.at, w.at, loop) {
		return true
	}
	if !c.x.Vary(w.key, loop).Equal(r.key) {
		return false
	}
	return r.field == nil || c.x.Vary(w.fkey, loop).Equal(r.fkey)
}

// onlyNextIteration reports whether the write follows the read only in a
// later iteration of a loop around both. A read that then decides nothing
// but whether the loop goes on (write, read back, check) gives the write
// nothing: the write's value does not come from it, and no update is lost.
func onlyNextIteration(f *fn, r, w *event) bool {
	loop := f.loopAround(r.at, w.at)
	return loop != nil && !f.beforeInIteration(r.at, w.at, loop)
}

// underLock reports whether a lock is taken before the read on some path
// of the function: SET NX, or a lock library's Obtain, Lock, TryLock…
// The read-modify-write is then serialised by that lock.
func underLock(f *fn, r *event) bool {
	for _, a := range f.all {
		if (a.kind == acquireTTL || a.kind == acquireNoTTL) && f.before(a.at, r.at) {
			return true
		}
	}
	for _, l := range f.locks {
		if f.before(l, r.at) {
			return true
		}
	}
	return false
}

// otherClient reports whether the read and the write go through two
// different client values (src.Get, dst.Set: a copy between servers).
// Pipelines and transactions are made from a client and do not count.
func otherClient(r, w *event) bool {
	if !r.direct() || !w.direct() || !sentByReceiver(r.call.Client) || !sentByReceiver(w.call.Client) {
		return false
	}
	rs, ok1 := ast.Unparen(r.at.Fun).(*ast.SelectorExpr)
	ws, ok2 := ast.Unparen(w.at.Fun).(*ast.SelectorExpr)
	if !ok1 || !ok2 || r.call.OnPipeline || w.call.OnPipeline {
		return false
	}
	return types.ExprString(rs.X) != types.ExprString(ws.X)
}

// sentByReceiver reports whether a client's calls name the client (or
// connection) as their receiver. A rueidis or valkey-go command is
// recorded at its builder's Build, whose receiver is the builder chain.
func sentByReceiver(c redisapi.Client) bool {
	return c == redisapi.GoRedisClient || c == redisapi.RedigoClient
}

func inWatch(e *event) bool { return watched(e.call.Tx) }

// watched reports whether a transaction is a WATCH block: go-redis's
// Watch, or MULTI ... EXEC after WATCH on any client. Its EXEC fails when
// a watched key changed.
func watched(tx *redisapi.Tx) bool {
	return tx != nil && (tx.Watch || len(tx.Watched) > 0 || !tx.WatchComplete)
}

// onTx reports whether a call is made on a transaction value that exists
// only inside a WATCH block (go-redis's *Tx): its TxPipelined fails when a
// watched key changed, so a read through it is guarded even where the
// callback is a function value the analyzer does not connect to its Watch
// call.
func onTx(e *event) bool { return e.direct() && e.call.OnWatchTx }

func lostUpdateMessage(r, w *event, byValue, counter bool) string {
	what := r.key.String()
	rd, wr := command(r), commandOf(w)
	if r.field != nil {
		what += " field " + r.fkey.String()
	}
	watch := adviceFor[w.call.Client].watch
	var fix string
	switch {
	case counter && r.field != nil:
		fix = "use HINCRBY, or a script, or " + watch
	case counter:
		fix = "use INCRBY, or a script, or " + watch
	case byValue || w.call.Client != redisapi.GoRedisClient:
		fix = "use a script, or " + watch
	default:
		fix = "use runtime's Client.MaxUpdate for a running maximum, or a script, or " + watch
	}
	w1 := command(w)
	return wr + " of " + what + " depends on the " + commandOf(r) + " before it with no WATCH or script: two clients interleaved as A " + rd +
		", B " + rd + ", A " + w1 + ", B " + w1 + " lose A's update; " + fix
}

// arithmetic reports whether the written value adds to or subtracts from
// the value read: a counter emulated with GET and SET.
func arithmetic(v ast.Expr, t *taint) bool {
	found := false
	ast.Inspect(v, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) && isNumber(t.info.TypeOf(b)) && (t.mentions(b.X) || t.mentions(b.Y)) {
			found = true
		}
		return !found
	})
	return found
}

func isNumber(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}
