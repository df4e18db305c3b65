package lockcheck

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// retry reports SL1303: a loop around a lock acquisition (SET NX) that
// waits the same time between attempts: time.Sleep, time.After,
// time.Tick or a ticker with a duration the loop never changes. Clients
// that lose the race together retry together, in lockstep, and load the
// key's shard; the waiting time should grow and carry jitter.
func (c *checker) retry() {
	if !c.r.Enabled(rules.FixedRetry) {
		return
	}
	for _, f := range c.fns {
		done := map[ast.Node]bool{}
		for _, a := range f.all {
			if a.kind != acquireNoTTL && a.kind != acquireTTL {
				continue
			}
			loop := innermostLoop(f.body, a.at.Pos())
			if loop == nil || done[loop] || !leavesOnSuccess(f, loop, a.at) {
				continue
			}
			done[loop] = true
			for _, w := range c.fixedWaits(loop) {
				c.r.Report(rules.FixedRetry, w.at, nil,
					"lock retry loop on %s waits a fixed %s between attempts (no growth, no jitter): clients that lose the race retry in lockstep and hammer the key's shard; back off exponentially with jitter, as runtime's Client.Obtain does",
					a.key, w.what)
			}
		}
	}
}

// leavesOnSuccess reports whether loop is a retry loop: the acquisition's
// result decides whether it ends (the loop condition, or a branch that
// returns or breaks out). A loop that takes the lock, works and waits for
// the next round (a periodic job) is paced on purpose.
func leavesOnSuccess(f *fn, loop ast.Node, acquire *ast.CallExpr) bool {
	t := newTaint(f, acquire)
	o := newOutcome(f, acquire)
	var body *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.ForStmt:
		if l.Cond != nil && (t.mentions(l.Cond) || o.is(l.Cond, token.NEQ)) {
			return true
		}
		body = l.Body
	case *ast.RangeStmt:
		body = l.Body
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if t.mentions(n.Cond) && (exits(n.Body) || (n.Else != nil && exits(n.Else))) {
				found = true
			}
			if o.is(n.Cond, token.EQL) && exits(n.Body) || o.is(n.Cond, token.NEQ) && n.Else != nil && exits(n.Else) {
				found = true
			}
		}
		return true
	})
	return found
}

// outcome is the error of an acquisition made by a helper that returns
// only an error (func (l Lock) Lock(key string) error, nil once the lock
// is taken): the acquisition call and the variables assigned from it.
// The taint leaves errors out, since a Redis call's error is not its
// data; here the helper's error is the only sign of success.
type outcome struct {
	info    *types.Info
	acquire *ast.CallExpr
	vars    map[*types.Var]bool
}

func newOutcome(f *fn, acquire *ast.CallExpr) *outcome {
	info := f.pass.TypesInfo
	if t := info.TypeOf(acquire); t == nil || !isError(t) {
		return nil
	}
	o := &outcome{info: info, acquire: acquire, vars: map[*types.Var]bool{}}
	ast.Inspect(f.body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == acquire {
			if id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); ok {
				if v, ok := info.ObjectOf(id).(*types.Var); ok {
					o.vars[v] = true
				}
			}
		}
		return true
	})
	return o
}

// is reports whether cond compares the outcome with nil by op: == nil
// (taken) or != nil (not taken).
func (o *outcome) is(cond ast.Expr, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if o == nil || !ok || b.Op != op {
		return false
	}
	return o.nilIdent(b.Y) && o.of(b.X) || o.nilIdent(b.X) && o.of(b.Y)
}

func (o *outcome) of(e ast.Expr) bool {
	e = ast.Unparen(e)
	if e == ast.Expr(o.acquire) {
		return true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := o.info.Uses[id].(*types.Var)
	return ok && o.vars[v]
}

func (o *outcome) nilIdent(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := o.info.Uses[id].(*types.Nil)
	return isNil
}

// exits reports whether n holds a return, or a break or goto that leaves
// the loop around n.
func exits(n ast.Node) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil || m == n {
				return !found
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				found = true
			case *ast.BranchStmt:
				switch {
				case m.Tok == token.GOTO, m.Tok == token.BREAK && (m.Label != nil || !nested):
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				walk(m, true) // an unlabeled break in there ends that statement
				return false
			}
			return true
		})
	}
	walk(n, false)
	return found
}

// innermostLoop is the innermost for or range statement of body holding p,
// not counting loops of function literals around p.
func innermostLoop(body *ast.BlockStmt, p token.Pos) ast.Node {
	var loop ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !within(p, n) {
			return false
		}
		switch n.(type) {
		case *ast.FuncLit:
			loop = nil // a literal's loops are its own; so are loops around it
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loop = n
		}
		return true
	})
	return loop
}

// wait is one fixed wait found in a loop.
type wait struct {
	at   ast.Node
	what string
}

// fixedWaits finds the waits of loop whose duration does not change from
// one iteration to the next.
func (c *checker) fixedWaits(loop ast.Node) []wait {
	var out []wait
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			name := c.funcName(n)
			switch name {
			case "time.Sleep", "time.After", "time.Tick", "time.NewTicker":
				if len(n.Args) == 1 && c.fixedIn(n.Args[0], loop) {
					out = append(out, wait{n, c.duration(n.Args[0])})
				}
			}
		case *ast.SelectorExpr:
			// <-ticker.C of a ticker made before the loop.
			if n.Sel.Name != "C" {
				break
			}
			id, ok := ast.Unparen(n.X).(*ast.Ident)
			if !ok {
				break
			}
			if call, ok := ast.Unparen(c.x.Origin(id)).(*ast.CallExpr); ok && call != nil && !within(call.Pos(), loop) &&
				c.funcName(call) == "time.NewTicker" && len(call.Args) == 1 && c.fixedIn(call.Args[0], loop) {
				out = append(out, wait{n, c.duration(call.Args[0])})
			}
		}
		return true
	})
	return out
}

func (c *checker) funcName(call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return ""
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// fixedIn reports whether d has the same value in every iteration of loop:
// a constant, or variables and fields the loop never writes, combined by
// arithmetic and conversions. Any other call (a random jitter, a backoff
// policy) is taken as varying.
func (c *checker) fixedIn(d ast.Expr, loop ast.Node) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[d]; ok && tv.Value != nil {
		return true
	}
	switch d := ast.Unparen(d).(type) {
	case *ast.BinaryExpr:
		return c.fixedIn(d.X, loop) && c.fixedIn(d.Y, loop)
	case *ast.CallExpr:
		if tv, ok := info.Types[d.Fun]; ok && tv.IsType() && len(d.Args) == 1 {
			return c.fixedIn(d.Args[0], loop)
		}
		return false
	case *ast.Ident:
		v, ok := info.Uses[d].(*types.Var)
		return ok && !writtenIn(info, v, loop)
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[d]; ok && sel.Kind() == types.FieldVal {
			return c.fixedIn(d.X, loop) && !fieldWrittenIn(info, sel.Obj(), loop)
		}
		if v, ok := info.Uses[d.Sel].(*types.Var); ok {
			return !writtenIn(info, v, loop) // a package-level variable
		}
	}
	return false
}

// writtenIn reports whether v is assigned, incremented or has its address
// taken inside n.
func writtenIn(info *types.Info, v *types.Var, n ast.Node) bool {
	return astutil.AssignedIn(n, true, func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && (info.Uses[id] == v || info.Defs[id] == v)
	})
}

// fieldWrittenIn reports whether field is assigned inside n.
func fieldWrittenIn(info *types.Info, field types.Object, n ast.Node) bool {
	return astutil.AssignedIn(n, false, func(e ast.Expr) bool {
		s, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		sel, ok := info.Selections[s]
		return ok && sel.Obj() == field
	})
}

// duration renders a wait: its value when constant, else as written.
func (c *checker) duration(d ast.Expr) string {
	if tv, ok := c.pass.TypesInfo.Types[d]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
		if n, ok := constant.Int64Val(tv.Value); ok {
			return time.Duration(n).String()
		}
	}
	return "interval (" + types.ExprString(d) + ")"
}
