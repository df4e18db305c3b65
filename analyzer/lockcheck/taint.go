package lockcheck

import (
	"go/ast"
	"go/types"
)

// taint is what holds data read by one GET or HGET inside a function: the
// read call itself, variables assigned from it (directly, through .Val(),
// .Result(), .Int64() …, or from other tainted values), and a command
// variable (cmd := rdb.Get(…)) whose methods other than Err give the data.
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
	type flow struct {
		lhs []ast.Expr
		rhs []ast.Expr
	}
	var flows []flow
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			flows = append(flows, flow{n.Lhs, n.Rhs})
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			flows = append(flows, flow{lhs, n.Values})
		case *ast.RangeStmt:
			flows = append(flows, flow{[]ast.Expr{n.Key, n.Value}, []ast.Expr{n.X}})
		}
		return true
	})
	// The command variable, if the read is assigned whole.
	for _, fl := range flows {
		if len(fl.lhs) == 1 && len(fl.rhs) == 1 && ast.Unparen(fl.rhs[0]) == ast.Expr(read) {
			if v := t.varOf(fl.lhs[0]); v != nil {
				t.cmds[v] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fl := range flows {
			for i, l := range fl.lhs {
				v := t.varOf(l)
				if v == nil || t.vars[v] || t.cmds[v] || isError(v.Type()) {
					continue
				}
				var src ast.Expr
				switch {
				case len(fl.rhs) == len(fl.lhs):
					src = fl.rhs[i]
				case len(fl.rhs) == 1:
					src = fl.rhs[0]
				default:
					continue
				}
				if t.mentions(src) {
					t.vars[v] = true
					changed = true
				}
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
func (t *taint) mentions(e ast.Node) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if n == t.read {
				found = true
				return false
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if sel.Sel.Name == "Err" && ast.Unparen(sel.X) == ast.Expr(t.read) {
					return false // whether the key exists, not its value
				}
				if v := t.varOf(sel.X); v != nil && t.cmds[v] && sel.Sel.Name != "Err" {
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
