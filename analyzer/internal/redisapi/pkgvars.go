package redisapi

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// packageVarValues maps the package-level variables declared with one
// value each to that value. Assignments in functions are not looked for:
// the front ends use it to find the script a package variable holds, and
// script variables are set once.
func packageVarValues(pass *analysis.Pass) map[*types.Var]ast.Expr {
	vals := map[*types.Var]ast.Expr{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, name := range vs.Names {
					if v, ok := pass.TypesInfo.Defs[name].(*types.Var); ok {
						vals[v] = vs.Values[i]
					}
				}
			}
		}
	}
	return vals
}

// fieldValues maps the struct fields the package gives exactly one value
// (an assignment s.f = v, or a struct literal) to that value: a script
// created in a constructor and held in a field is that script at every
// use. Fields given several values, or whose address is taken, are left
// out.
func fieldValues(pass *analysis.Pass) map[*types.Var]ast.Expr {
	vals := map[*types.Var]ast.Expr{}
	many := map[*types.Var]bool{}
	set := func(v *types.Var, e ast.Expr) {
		if v == nil || many[v] {
			return
		}
		if _, seen := vals[v]; seen || e == nil {
			many[v] = true
			delete(vals, v)
			return
		}
		vals[v] = e
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					v := fieldOf(pass.TypesInfo, lhs)
					if v == nil {
						continue
					}
					if n.Tok == token.ASSIGN && len(n.Rhs) == len(n.Lhs) {
						set(v, n.Rhs[i])
					} else {
						set(v, nil)
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					set(fieldOf(pass.TypesInfo, n.X), nil)
				}
			case *ast.CompositeLit:
				t := pass.TypesInfo.TypeOf(n)
				if t == nil {
					return true
				}
				st, ok := t.Underlying().(*types.Struct)
				if !ok {
					return true
				}
				for i, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							v, _ := pass.TypesInfo.Uses[id].(*types.Var)
							set(v, kv.Value)
						}
					} else if i < st.NumFields() {
						set(st.Field(i), el)
					}
				}
			}
			return true
		})
	}
	return vals
}

// fieldOf is the struct field a selector expression names, if any.
func fieldOf(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
		v, _ := s.Obj().(*types.Var)
		return v
	}
	return nil
}
