package luacheck

import "github.com/yuin/gopher-lua/ast"

// walkChunk walks the parsed chunk once with an explicit stack. It
// measures nesting, reporting the line of the first node deeper than limit
// (operator chains nest without brackets, "a .. b .. c ...", so the token
// scan alone cannot bound the depth the interpreter will recurse to), and
// otherwise names every local assigned inside a function body: such a
// variable can change behind a loop's back, and every name read anywhere
// (see unreferencedFunctions).
func walkChunk(chunk []ast.Stmt, limit int) (deepLine int, deep bool, closureWrites, names map[string]bool) {
	type item struct {
		node   any
		depth  int
		inside bool // within some function body
	}
	stack := make([]item, 0, 64)
	buf := make([]any, 0, 16)
	for _, s := range chunk {
		stack = append(stack, item{s, 1, false})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > limit {
			if p, ok := it.node.(ast.PositionHolder); ok {
				return p.Line(), true, nil, nil
			}
			return 1, true, nil, nil
		}
		if id, ok := it.node.(*ast.IdentExpr); ok {
			if names == nil {
				names = map[string]bool{}
			}
			names[id.Value] = true
		}
		if a, ok := it.node.(*ast.AssignStmt); ok && it.inside {
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.IdentExpr); ok {
					if closureWrites == nil {
						closureWrites = map[string]bool{}
					}
					closureWrites[id.Value] = true
				}
			}
		}
		_, isFn := it.node.(*ast.FunctionExpr)
		buf = children(it.node, buf[:0])
		for _, ch := range buf {
			stack = append(stack, item{ch, it.depth + 1, it.inside || isFn})
		}
	}
	return 0, false, closureWrites, names
}

// inspect walks the nodes below roots without recursion, so deep input
// cannot exhaust the stack: last root first, each node before its
// children. visit returns false to skip a node's children.
func inspect(roots []any, visit func(n any) bool) {
	stack := append(make([]any, 0, len(roots)), roots...)
	var buf []any
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(n) {
			continue
		}
		buf = children(n, buf[:0])
		stack = append(stack, buf...)
	}
}

// stmtNodes returns stmts as roots for inspect.
func stmtNodes(stmts []ast.Stmt) []any {
	out := make([]any, len(stmts))
	for i, s := range stmts {
		out[i] = s
	}
	return out
}

// children appends a node's direct sub-statements and sub-expressions to
// out.
func children(n any, out []any) []any {
	addE := func(es ...ast.Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	addS := func(ss []ast.Stmt) {
		for _, s := range ss {
			out = append(out, s)
		}
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		addE(n.Lhs...)
		addE(n.Rhs...)
	case *ast.LocalAssignStmt:
		addE(n.Exprs...)
	case *ast.FuncCallStmt:
		addE(n.Expr)
	case *ast.DoBlockStmt:
		addS(n.Stmts)
	case *ast.WhileStmt:
		addE(n.Condition)
		addS(n.Stmts)
	case *ast.RepeatStmt:
		addE(n.Condition)
		addS(n.Stmts)
	case *ast.IfStmt:
		addE(n.Condition)
		addS(n.Then)
		addS(n.Else)
	case *ast.NumberForStmt:
		addE(n.Init, n.Limit, n.Step)
		addS(n.Stmts)
	case *ast.GenericForStmt:
		addE(n.Exprs...)
		addS(n.Stmts)
	case *ast.FuncDefStmt:
		if n.Name != nil {
			addE(n.Name.Func, n.Name.Receiver)
		}
		if n.Func != nil {
			out = append(out, n.Func)
		}
	case *ast.ReturnStmt:
		addE(n.Exprs...)
	case *ast.AttrGetExpr:
		addE(n.Object, n.Key)
	case *ast.TableExpr:
		for _, f := range n.Fields {
			addE(f.Key, f.Value)
		}
	case *ast.FuncCallExpr:
		addE(n.Func, n.Receiver)
		addE(n.Args...)
	case *ast.LogicalOpExpr:
		addE(n.Lhs, n.Rhs)
	case *ast.RelationalOpExpr:
		addE(n.Lhs, n.Rhs)
	case *ast.StringConcatOpExpr:
		addE(n.Lhs, n.Rhs)
	case *ast.ArithmeticOpExpr:
		addE(n.Lhs, n.Rhs)
	case *ast.UnaryMinusOpExpr:
		addE(n.Expr)
	case *ast.UnaryNotOpExpr:
		addE(n.Expr)
	case *ast.UnaryLenOpExpr:
		addE(n.Expr)
	case *ast.FunctionExpr:
		addS(n.Stmts)
	}
	return out
}
