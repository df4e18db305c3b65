package redisapi

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
)

// Queues is the fact recorded for a function that sends commands on a
// client value it receives as a parameter, as a helper handed a
// transaction's redis.Pipeliner or a redigo connection inside MULTI does:
// a caller passing its transaction there queues these commands in it.
type Queues struct {
	Commands []Queued
}

// Queued is one command a function sends on its parameter Param (0-based;
// the receiver is not a parameter), with its keys in terms of the
// function's parameters. Repeated: sent once per iteration of a loop, so
// values the function computes itself differ from one to the next.
type Queued struct {
	Param    int
	Command  string
	Keys     [][]keyexpr.FactPart
	Repeated bool
}

// AFact marks Queues as an analysis fact.
func (*Queues) AFact() {}

func (q *Queues) String() string {
	var b strings.Builder
	b.WriteString("queues(")
	for i, c := range q.Commands {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "param %d: %s", c.Param, c.Command)
		for _, k := range c.Keys {
			b.WriteString(" " + keyexpr.PartsString(k))
		}
		if c.Repeated {
			b.WriteString(" per iteration")
		}
	}
	b.WriteString(")")
	return b.String()
}

// handOff is a call that passes a value holding an open transaction (a
// pipeliner, a connection inside MULTI) to a function of the user's code:
// the commands that function sends on it join the transaction.
type handOff struct {
	call   *ast.CallExpr
	arg    int
	tx     *Tx
	client Client
}

// helpers summarises the package's functions that send commands on a
// parameter, exports the summaries as facts, and adds the commands of
// every hand-off to its transaction.
type helpers struct {
	pass  *analysis.Pass
	x     *keyexpr.Extractor
	decls map[*types.Func]*ast.FuncDecl
	// sent are the recorded commands by their call.
	sent map[*ast.CallExpr]*Call
	sums map[*types.Func]*helperSum
}

type helperSum struct {
	q       *Queues
	pending bool
}

// maxHelperDepth bounds how deep helper calls are followed within one
// package, as keyexpr bounds builders.
const maxHelperDepth = 8

func summarizeHelpers(pass *analysis.Pass, x *keyexpr.Extractor, res *Result) {
	decls, order := x.FuncDecls()
	h := &helpers{pass: pass, x: x, decls: decls,
		sent: map[*ast.CallExpr]*Call{}, sums: map[*types.Func]*helperSum{}}
	for _, c := range res.Calls {
		if c.On != nil && c.Tx == nil {
			h.sent[c.Node] = c
		}
	}
	for _, fn := range order {
		if q := h.summary(fn, 0); q != nil {
			pass.ExportObjectFact(fn, q)
		}
	}
	for _, ho := range res.handOffs {
		h.bind(ho)
	}
}

// queues returns the summary of a function of this package, or the fact of
// an imported one.
func (h *helpers) queues(fn *types.Func, depth int) *Queues {
	if fn.Pkg() == h.pass.Pkg {
		return h.summary(fn, depth)
	}
	var q Queues
	if h.pass.ImportObjectFact(fn, &q) {
		return &q
	}
	return nil
}

// summary lists the commands fn sends on its parameters, directly or
// through the helpers it hands them to. Closures are left out: they may run
// after the function returns.
func (h *helpers) summary(fn *types.Func, depth int) *Queues {
	if s, ok := h.sums[fn]; ok {
		if s.pending {
			return nil
		}
		return s.q
	}
	fd := h.decls[fn]
	if fd == nil || depth > maxHelperDepth {
		return nil
	}
	s := &helperSum{pending: true}
	h.sums[fn] = s
	params := map[*types.Var]int{}
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len(); i++ {
		if p := sig.Params().At(i); mayHoldTx(p.Type()) {
			params[p] = i
		}
	}
	q := &Queues{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			repeated := h.x.LoopOf(n.Pos(), fd.Body.Pos(), fd.Body.End()) != nil
			if rec := h.sent[n]; rec != nil {
				if i, ok := h.param(rec.On, params); ok {
					if cmd, ok := h.own(fn, rec, i, repeated); ok {
						q.Commands = append(q.Commands, cmd)
					}
				}
				return true
			}
			q.Commands = append(q.Commands, h.through(fn, n, params, repeated, depth)...)
		}
		return true
	})
	s.pending = false
	if len(q.Commands) > 0 {
		s.q = q
	}
	return s.q
}

// mayHoldTx reports whether a parameter of type t can receive a
// transaction: an interface (redis.Pipeliner, redis.Cmdable, redigo's
// Conn) or go-redis's *Tx. A *redis.Client parameter cannot.
func mayHoldTx(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if isGoRedisType(t, "Tx") {
		return true
	}
	_, ok := t.Underlying().(*types.Interface)
	return ok
}

// param reports which parameter e names.
func (h *helpers) param(e ast.Expr, params map[*types.Var]int) (int, bool) {
	v, ok := h.x.Var(e)
	if !ok {
		return 0, false
	}
	i, ok := params[v]
	return i, ok
}

// own summarises a command fn sends on its parameter i itself.
func (h *helpers) own(fn *types.Func, rec *Call, i int, repeated bool) (Queued, bool) {
	cmd := Queued{Param: i, Command: rec.Command, Repeated: repeated}
	for _, el := range rec.Keys {
		if el.Expr == nil {
			return Queued{}, false
		}
		parts, ok := keyexpr.FactParts(h.x.ParamKey(fn, el.Expr))
		if !ok {
			return Queued{}, false
		}
		cmd.Keys = append(cmd.Keys, parts)
		cmd.Repeated = cmd.Repeated || el.Loop != nil
	}
	return cmd, true
}

// through summarises the commands a helper called by fn sends on fn's
// parameters, in terms of fn's parameters.
func (h *helpers) through(fn *types.Func, call *ast.CallExpr, params map[*types.Var]int, repeated bool, depth int) []Queued {
	callee, ok := typeutil.Callee(h.pass.TypesInfo, call).(*types.Func)
	if !ok || callee == nil {
		return nil
	}
	var out []Queued
	var q *Queues
	for a, arg := range call.Args {
		j, ok := h.param(arg, params)
		if !ok {
			continue
		}
		if q == nil {
			if q = h.queues(callee, depth+1); q == nil {
				return nil
			}
		}
		for _, c := range q.Commands {
			if c.Param != a {
				continue
			}
			cmd := Queued{Param: j, Command: c.Command, Repeated: c.Repeated || repeated}
			bound := true
			for _, parts := range c.Keys {
				k, ok := h.x.BindCall(parts, callee, call, fn)
				if !ok {
					bound = false
					break
				}
				p, ok := keyexpr.FactParts(k)
				if !ok {
					bound = false
					break
				}
				cmd.Keys = append(cmd.Keys, p)
			}
			if bound {
				out = append(out, cmd)
			}
		}
	}
	return out
}

// bind adds the commands a hand-off's callee sends on the transaction's
// value to the transaction, each placed at the call that hands it over.
func (h *helpers) bind(ho handOff) {
	callee, ok := typeutil.Callee(h.pass.TypesInfo, ho.call).(*types.Func)
	if !ok || callee == nil {
		return
	}
	q := h.queues(callee, 0)
	if q == nil {
		return
	}
	loop := h.x.LoopOf(ho.call.Pos(), ho.tx.body[0], ho.tx.body[1])
	for _, c := range q.Commands {
		if c.Param != ho.arg {
			continue
		}
		rec := &Call{Node: ho.call, Method: callee.Name(), Command: c.Command, Complete: true,
			Client: ho.client, Tx: ho.tx, Loop: loop}
		for _, parts := range c.Keys {
			k, ok := h.x.BindCall(parts, callee, ho.call, nil)
			if !ok {
				rec = nil
				break
			}
			el := keyexpr.Elem{Key: k, Expr: ho.call}
			if c.Repeated {
				// Values the helper computes are renamed per call site
				// (keyexpr.BindCall), inside the call's extent: as a loop,
				// the call makes each iteration's value differ.
				el.Loop = ho.call
			}
			rec.Keys = append(rec.Keys, el)
		}
		if rec != nil {
			ho.tx.Calls = append(ho.tx.Calls, rec)
		}
	}
}
