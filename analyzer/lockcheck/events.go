package lockcheck

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/slot"
)

// kind is what a Redis call does to its key, as far as the lock rules care.
type kind uint8

const (
	acquireNoTTL kind = iota // SET NX (SETNX) leaving the key without expiry
	acquireTTL               // SET NX with an expiry
	expire                   // EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT
	del                      // DEL, UNLINK
	read                     // GET, HGET
	write                    // SET, SETEX, HSET of one field
	increment                // INCR, INCRBY, DECR, HINCRBY ...: a counter
	ttlRead                  // TTL, PTTL, EXPIRETIME, PEXPIRETIME
)

// event is one such call as seen from one function: the call itself, or a
// call of a package function that makes it.
type event struct {
	kind  kind
	key   slot.Key
	field ast.Expr // HGET/HSET field; nil for string keys
	fkey  slot.Key // the field as a key, to compare fields
	call  *redisapi.Call
	// at is where the event happens in this function: the Redis call, or
	// the call of the helper that makes it (via).
	at  *ast.CallExpr
	via *types.Func
	// orig is the Redis call's own event, in its function's terms.
	orig *event
	// returned: a read (or an increment) made by a helper that returns
	// the value read, so the helper call's result is the data.
	returned bool
	// value is the written value (write), ttl the expiry argument of
	// SetNX (acquireNoTTL), direct calls only.
	value, ttl ast.Expr
}

func (e *event) direct() bool { return e.via == nil }

// origin is the event as its own function sees it.
func (e *event) origin() *event {
	if e.orig != nil {
		return e.orig
	}
	return e
}

// classify turns a Redis call into events, from what its client's front
// end read of the command: the same for every client.
func classify(x *keyexpr.Extractor, c *redisapi.Call) []*event {
	one := func(k kind) []*event {
		if len(c.Keys) == 0 {
			return nil
		}
		return []*event{{kind: k, key: c.Keys[0].Key, call: c, at: c.Node}}
	}
	switch c.Command {
	case "SET", "SETNX", "SETARGS", "SETEX", "PSETEX":
		switch set := c.Set; {
		case set == nil || len(c.Keys) != 1:
			return nil
		case set.NX && set.TTL:
			return one(acquireTTL)
		case set.NX:
			ev := one(acquireNoTTL)
			ev[0].ttl = set.ZeroTTL
			return ev
		case set.Guarded:
			return nil // IFEQ and the other compare-and-set modes are guarded
		}
		ev := one(write)
		ev[0].value = c.Value
		return ev
	case "GET":
		if len(c.Keys) != 1 {
			return nil
		}
		return one(read)
	case "HGET":
		if c.Field == nil || len(c.Keys) != 1 {
			return nil
		}
		ev := one(read)
		ev[0].field, ev[0].fkey = c.Field, x.Key(c.Field)
		return ev
	case "HSET":
		if c.Field == nil || c.Value == nil || len(c.Keys) != 1 {
			return nil
		}
		ev := one(write)
		ev[0].field, ev[0].fkey, ev[0].value = c.Field, x.Key(c.Field), c.Value
		return ev
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "EXPIRENX", "EXPIREXX", "EXPIREGT", "EXPIRELT":
		if len(c.Keys) != 1 {
			return nil
		}
		return one(expire)
	case "INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY", "HINCRBY", "HINCRBYFLOAT":
		if len(c.Keys) != 1 {
			return nil
		}
		return one(increment)
	case "TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME":
		if len(c.Keys) != 1 {
			return nil
		}
		return one(ttlRead)
	case "DEL", "UNLINK":
		var out []*event
		for _, k := range c.Keys {
			out = append(out, &event{kind: del, key: k.Key, call: c, at: c.Node})
		}
		return out
	}
	return nil
}

// maxHelperDepth bounds how many helper calls deep events are followed.
const maxHelperDepth = 3

// helpers projects the events of package functions to their call sites.
type helpers struct {
	pass   *analysis.Pass
	x      *keyexpr.Extractor
	decls  map[*types.Func]*fn
	events map[*types.Func][]*event
	busy   map[*types.Func]bool
	// returns memoizes returnsRead.
	returns map[*event]bool
}

// of returns the events a call of a package function makes, with the
// callee's parameters bound to the call's arguments and its own values
// renamed per call site (two calls are two values).
func (h *helpers) of(call *ast.CallExpr, depth int) []*event {
	callee, _ := typeutil.Callee(h.pass.TypesInfo, call).(*types.Func)
	if callee == nil || depth > maxHelperDepth {
		return nil
	}
	f := h.decls[callee]
	if f == nil || h.busy[callee] {
		return nil
	}
	evs, ok := h.events[callee]
	if !ok {
		h.busy[callee] = true
		evs = h.collect(f, depth+1)
		delete(h.busy, callee)
		h.events[callee] = evs
	}
	if len(evs) == 0 {
		return nil
	}
	sig, _ := callee.Type().(*types.Signature)
	if sig == nil || sig.Variadic() || call.Ellipsis.IsValid() || sig.Params().Len() != len(call.Args) {
		return nil
	}
	bind := map[slot.HoleID]slot.Key{}
	for i := 0; i < sig.Params().Len(); i++ {
		bind[h.x.VarHole(sig.Params().At(i))] = h.x.Key(call.Args[i])
	}
	sub := func(k slot.Key) slot.Key {
		return k.Substitute(func(hole slot.Hole) (slot.Key, bool) {
			if k, ok := bind[hole.ID]; ok {
				return k, true
			}
			return keyexpr.AtCall(hole, call.Pos())
		})
	}
	out := make([]*event, 0, len(evs))
	for _, e := range evs {
		p := *e
		p.key = sub(e.key)
		if e.field != nil {
			p.fkey = sub(e.fkey)
		}
		p.at, p.via, p.orig = call, callee, e.origin()
		p.value, p.ttl = h.argOf(callee, call, e.value), nil
		p.returned = (e.kind == read || e.kind == increment || e.kind == ttlRead) && h.returnsRead(f, e)
		out = append(out, &p)
	}
	return out
}

// argOf maps an expression of the callee that is exactly one of its
// parameters to the call's argument for it; anything else is not followed.
func (h *helpers) argOf(callee *types.Func, call *ast.CallExpr, e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	sig := callee.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		if h.pass.TypesInfo.Uses[id] == sig.Params().At(i) {
			return call.Args[i]
		}
	}
	return nil
}

// returnsRead reports whether f returns the value of its own read e.
func (h *helpers) returnsRead(f *fn, e *event) bool {
	if r, ok := h.returns[e]; ok {
		return r
	}
	own := false
	for _, d := range f.events {
		own = own || d == e
	}
	found := false
	if own {
		t := newTaint(f, e.at)
		ast.Inspect(f.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				for _, r := range n.Results {
					found = found || t.mentions(r)
				}
			}
			return !found
		})
	}
	h.returns[e] = found
	return found
}

// collect lists every event of a function body, closures included, as
// the function's callers see them.
func (h *helpers) collect(f *fn, depth int) []*event {
	var out []*event
	for _, e := range f.events {
		if e.direct() {
			out = append(out, e)
		}
	}
	for _, c := range f.calls {
		out = append(out, h.of(c, depth)...)
	}
	for _, lit := range f.lits {
		out = append(out, h.collect(lit, depth)...)
	}
	return out
}
