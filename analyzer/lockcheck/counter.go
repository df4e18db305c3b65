package lockcheck

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/rules"
)

// counterTTL reports SL1305: a counter whose TTL a separate EXPIRE sets
// only for one count of the increment's reply (if n == 1, the key is new;
// if n == limit). A process that dies, or an EXPIRE that fails, between
// the two leaves a counter that never expires: no later increment gives
// that count again, so none sets the TTL. An EXPIRE after every increment,
// or after every one under a limit, is left alone (the next call repairs
// a lost TTL), and so is one that a TTL or PTTL read of the key also
// decides (a repair of its own). So is a counter whose key names its
// window (built from time.Now): a lost TTL leaves one past window's key
// behind, and the next window counts in a new key, so nothing is stuck.
func (c *checker) counterTTL() {
	if !c.r.Enabled(rules.CounterNoTTL) {
		return
	}
	for _, f := range c.fns {
		for _, a := range f.all {
			if a.kind != increment || !(a.direct() || a.returned) {
				continue
			}
			var t *taint
			for _, e := range expiresAfter(f, a) {
				if t == nil {
					t = newTaint(f, a.at)
				}
				if !f.decidedBy(a.at, e.at, func(x ast.Expr) bool { return c.oneCount(x, t) }) || repaired(f, e) {
					continue
				}
				if c.windowKeyed(a) {
					break // a new key every window: nothing stays stuck
				}
				c.r.Report(rules.CounterNoTTL, a.at, nil,
					"%s of counter key %s sets no TTL and %s sets one only at one count of its reply: if the process dies or the %s fails in between, no later call sets it, and the counter never expires and keeps counting; %s",
					commandOf(a), a.key, commandOf(e), command(e), counterAdvice(a.call.Client))
				break
			}
		}
	}
}

// repaired reports whether a TTL or PTTL read of the EXPIRE's key comes
// before it and decides whether it runs: the code sets a missing TTL
// again whenever it finds one missing.
func repaired(f *fn, e *event) bool {
	for _, r := range f.all {
		if r.kind != ttlRead || !r.key.Equal(e.key) || !(r.direct() || r.returned) || !f.before(r.at, e.at) {
			continue
		}
		if f.decidedBy(r.at, e.at, newTaint(f, r.at).decides) {
			return true
		}
	}
	return false
}

// oneCount reports whether a branch condition singles out one count of
// the increment: the reply compared with == or != (n == 1, n != by,
// n == limit), or ordered against a constant of at most 2 (n > 1, n < 2).
// A bound that is not such a constant (n > limit) lets every count under
// it through, and each of those calls would set a lost TTL again.
func (c *checker) oneCount(x ast.Expr, t *taint) bool {
	b, ok := ast.Unparen(x).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if b.Op == token.LAND || b.Op == token.LOR {
		return c.oneCount(b.X, t) || c.oneCount(b.Y, t)
	}
	var other ast.Expr
	switch {
	case t.decides(b.X) && !t.mentions(b.Y):
		other = b.Y
	case t.decides(b.Y) && !t.mentions(b.X):
		other = b.X
	default:
		return false
	}
	switch b.Op {
	case token.EQL, token.NEQ:
		return true
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		v := c.pass.TypesInfo.Types[other].Value
		if v == nil {
			return false
		}
		n, exact := constant.Int64Val(constant.ToInt(v))
		return exact && n <= 2
	}
	return false
}

// windowKeyed reports whether the increment's key is built from the clock
// (time.Now, directly or through locals assigned once): a key per window,
// as rate:<ip>:<unix minute> or seq:<date>.
func (c *checker) windowKeyed(a *event) bool {
	exprs := []ast.Expr{}
	if o := a.origin(); len(o.call.Keys) == 1 && o.call.Keys[0].Expr != nil {
		exprs = append(exprs, o.call.Keys[0].Expr)
	}
	if !a.direct() {
		exprs = append(exprs, a.at.Args...)
	}
	for _, e := range exprs {
		if c.fromClock(e, 0) {
			return true
		}
	}
	return false
}

// fromClock reports whether e calls time.Now, or reads a local assigned
// once from an expression that does, up to four assignments back.
func (c *checker) fromClock(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Now" {
				found = true
			}
		case *ast.Ident:
			if o := c.x.Origin(n); o != ast.Expr(n) {
				found = c.fromClock(o, depth+1)
			}
		}
		return !found
	})
	return found
}
