package lockcheck

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
)

// taint is what holds data read by one GET or HGET inside a function: the
// read call itself, variables assigned from it (directly, through .Val(),
// .Result(), .Int64() …, or from other tainted values), and a command
// variable (cmd := rdb.Get(…), res := c.Do(ctx, …)) whose methods give the
// data, but for the one that gives the reply's error alone
// (redisapi.ReplyErr: go-redis's Err, rueidis's Error).
// Errors are not data: checking one does not make a write depend on the
// value read.
type taint struct {
	info *types.Info
	read *ast.CallExpr
	vars map[*types.Var]bool
	cmds map[*types.Var]bool
}

func newTaint(f *fn, read *ast.CallExpr) *taint {
	t := &taint{info: f.pass.TypesInfo, read: read, vars: map[*types.Var]bool{}, cmds: map[*types.Var]bool{}}
	// writes of each variable: the expression written, or nil for an
	// update of the variable's own value (n++, n += d).
	type write struct {
		src  ast.Expr
		self bool
	}
	writes := map[*types.Var][]write{}
	// defaults are assignments of a constant to a variable in the body of
	// an if that finds the variable at its zero value (if v == "" { v =
	// "0.0.0" }): a default for a missing value, after which the variable
	// still holds what was read whenever something was.
	defaults := map[*ast.AssignStmt]bool{}
	add := func(lhs, rhs []ast.Expr, self bool) {
		for i, l := range lhs {
			v := t.varOf(l)
			if v == nil || isError(v.Type()) {
				continue
			}
			var src ast.Expr
			switch {
			case len(rhs) == len(lhs):
				src = rhs[i]
			case len(rhs) == 1:
				src = rhs[0]
			}
			writes[v] = append(writes[v], write{src, self})
		}
	}
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			t.markDefaults(n, defaults)
		case *ast.AssignStmt:
			if defaults[n] {
				return true
			}
			add(n.Lhs, n.Rhs, n.Tok != token.ASSIGN && n.Tok != token.DEFINE)
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && redisapi.ReplyCommand(t.info, n.Rhs[0]) == ast.Expr(read) {
				if v := t.varOf(n.Lhs[0]); v != nil {
					t.cmds[v] = true
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == 0 {
				return true // a declaration, not a write
			}
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			add(lhs, n.Values, false)
			if len(n.Names) == 1 && len(n.Values) == 1 && redisapi.ReplyCommand(t.info, n.Values[0]) == ast.Expr(read) {
				if v := t.varOf(n.Names[0]); v != nil {
					t.cmds[v] = true
				}
			}
		case *ast.RangeStmt:
			add([]ast.Expr{n.Key, n.Value}, []ast.Expr{n.X}, false)
		case *ast.IncDecStmt:
			add([]ast.Expr{n.X}, nil, true)
		}
		return true
	})
	// A variable holds read data when every write of it does: a variable
	// also assigned something else (cache-aside: v = compute()) may not
	// hold it where it is used, and precision comes first.
	for changed := true; changed; {
		changed = false
		for v, ws := range writes {
			if t.vars[v] || t.cmds[v] {
				continue
			}
			all, some := true, false
			for _, w := range ws {
				switch {
				case w.self || (w.src != nil && t.uses(w.src, v)):
				case w.src != nil && t.mentions(w.src):
					some = true
				default:
					all = false
				}
			}
			if all && some {
				t.vars[v] = true
				changed = true
			}
		}
	}
	return t
}

func (t *taint) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	obj := t.info.Defs[id]
	if obj == nil {
		obj = t.info.Uses[id]
	}
	v, _ := obj.(*types.Var)
	return v
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// mentions reports whether e uses the data read.
func (t *taint) mentions(e ast.Node) bool { return t.find(e, false) }

// find looks for the data read in e, leaving out comparisons with a zero
// value when skipAbsence is set.
func (t *taint) find(e ast.Node, skipAbsence bool) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if skipAbsence && t.absence(n) {
				return false
			}
		case *ast.CallExpr:
			if n == t.read {
				found = true
				return false
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				reply, part, isReply := redisapi.ReplyMethod(t.info, n)
				errOnly := isReply && part == redisapi.ReplyErr
				if errOnly && reply == ast.Expr(t.read) {
					return false // whether the key exists, not its value
				}
				if v := t.varOf(sel.X); v != nil && t.cmds[v] && !errOnly {
					found = true
					return false
				}
			}
		case *ast.SelectorExpr:
			// cmd.Err and other methods are handled at the call.
			if v := t.varOf(n.X); v != nil && t.cmds[v] {
				return false
			}
		case *ast.Ident:
			if v, ok := t.info.Uses[n].(*types.Var); ok && t.vars[v] {
				found = true
			}
		}
		return true
	})
	return found
}

// uses reports whether e reads variable v.
func (t *taint) uses(e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && t.info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// decides reports whether condition e uses the data read for more than
// telling a missing value apart (v == "", n == 0, len(v) > 0, v != nil): a
// fill of a missing value writes the same thing whoever wins, while a
// comparison of the value read with the one to write (cur < v) is the
// lost-update race.
func (t *taint) decides(e ast.Expr) bool { return t.find(e, true) }

// markDefaults adds to defaults the assignments of a constant to v among
// the statements of an if whose condition is v == zero value.
func (t *taint) markDefaults(n *ast.IfStmt, defaults map[*ast.AssignStmt]bool) {
	b, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return
	}
	tested := t.varOf(b.X)
	if !t.isZero(b.Y) {
		tested = t.varOf(b.Y)
		if !t.isZero(b.X) {
			return
		}
	}
	if tested == nil {
		return
	}
	for _, st := range n.Body.List {
		a, ok := st.(*ast.AssignStmt)
		if !ok || a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 || t.varOf(a.Lhs[0]) != tested {
			continue
		}
		if tv, ok := t.info.Types[a.Rhs[0]]; ok && tv.Value != nil {
			defaults[a] = true
		}
	}
}

// absence reports whether b compares a value with its zero value.
func (t *taint) absence(b *ast.BinaryExpr) bool {
	switch b.Op {
	case token.EQL, token.NEQ, token.GTR, token.LSS, token.GEQ, token.LEQ:
	default:
		return false
	}
	return t.isZero(b.X) || t.isZero(b.Y)
}

func (t *taint) isZero(e ast.Expr) bool {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		_, isNil := t.info.Uses[id].(*types.Nil)
		return isNil
	}
	tv, ok := t.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
}
