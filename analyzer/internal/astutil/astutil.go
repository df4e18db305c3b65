// Package astutil holds small syntax-tree queries that several analyzers
// need and that belong to none of them.
package astutil

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/slotlint/slotlint/internal/stdlib"
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

// IsString reports whether t's underlying type is a string type: string,
// a named string type, or an untyped string constant's.
func IsString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// ConstString returns the value of e when it is a constant string.
func ConstString(info *types.Info, e ast.Expr) (string, bool) {
	tv := info.Types[e]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// ConstInt returns the value of e when it is a constant integer that fits
// an int64; e may be nil.
func ConstInt(info *types.Info, e ast.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	tv := info.Types[e]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	v, exact := constant.Int64Val(tv.Value)
	return int(v), exact
}

// IsStandard reports whether the pass's package is in the standard
// library, by the test internal/vetx applies to go vet's configuration.
func IsStandard(pass *analysis.Pass) bool {
	module := ""
	if pass.Module != nil {
		module = pass.Module.Path
	}
	return stdlib.IsStandard(pass.Pkg.Path(), module)
}

// EnclosingFunc returns the innermost function declaration or literal
// that holds c's node (or is it), or nil at package level.
func EnclosingFunc(c inspector.Cursor) ast.Node {
	for f := range c.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return f.Node()
	}
	return nil
}

// EnclosingFuncAt is EnclosingFunc of the innermost node around pos.
func EnclosingFuncAt(ins *inspector.Inspector, pos token.Pos) ast.Node {
	c, ok := ins.Root().FindByPos(pos, pos)
	if !ok {
		return nil
	}
	return EnclosingFunc(c)
}

// Stmts is the statement list of a block or of a case or select clause,
// nil for any other node.
func Stmts(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}
