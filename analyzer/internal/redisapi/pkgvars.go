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
