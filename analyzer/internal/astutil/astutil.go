// Package astutil holds small syntax-tree queries that several analyzers
// need and that belong to none of them.
package astutil

import (
	"go/ast"
	"go/token"
)

// AssignedIn reports whether an expression matching is is assigned or
// incremented inside n, or, with addr, has its address taken.
func AssignedIn(n ast.Node, addr bool, is func(ast.Expr) bool) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.AssignStmt:
			for _, l := range m.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(m.X)
		case *ast.UnaryExpr:
			found = found || (addr && m.Op == token.AND && is(m.X))
		}
		return !found
	})
	return found
}
