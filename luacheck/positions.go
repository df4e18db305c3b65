package luacheck

import (
	"github.com/yuin/gopher-lua/ast"
)

// gopher-lua's AST has lines but no columns. positions recovers the
// column of string literals and operators, the anchors of most findings,
// by pairing them in source order with the tokens of the same text: the
// k-th "GET" string on a line is the k-th 'GET' token there, the k-th
// "<" of the script is its k-th "<" token. A command name on the line
// after its redis.call gets its own line and column.
type positions struct {
	strs  map[*ast.StringExpr]Position
	ops   map[ast.Expr]Position
	loops map[ast.Stmt]Position // the keyword of for, while and repeat
}

type strSlot struct {
	line int
	text string
}

// nodeList is the nodes of one text (and line, for strings) in source
// order, and how many of them tokens have been paired with so far.
type nodeList[N any] struct {
	nodes []N
	seen  int
}

// buildPositions walks the chunk in source order.
func buildPositions(chunk []ast.Stmt, ts tokens) positions {
	strNodes := map[strSlot]*nodeList[*ast.StringExpr]{}
	opNodes := map[string]*nodeList[ast.Expr]{}
	loopNodes := map[strSlot]*nodeList[ast.Stmt]{}
	loop := func(s ast.Stmt, keyword string) {
		k := strSlot{s.Line(), keyword}
		l := loopNodes[k]
		if l == nil {
			l = &nodeList[ast.Stmt]{}
			loopNodes[k] = l
		}
		l.nodes = append(l.nodes, s)
	}
	nStrs, nOps := 0, 0
	stack := make([]any, 0, 64)
	for i := len(chunk) - 1; i >= 0; i-- {
		stack = append(stack, chunk[i])
	}
	// A binary operator is visited between its operands: its node is
	// pushed as an opMark after the right operand and before the left.
	type opMark struct {
		e  ast.Expr
		op string
	}
	var buf []any
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n := n.(type) {
		case opMark:
			l := opNodes[n.op]
			if l == nil {
				l = &nodeList[ast.Expr]{}
				opNodes[n.op] = l
			}
			l.nodes = append(l.nodes, n.e)
			nOps++
			continue
		case *ast.StringExpr:
			k := strSlot{n.Line(), n.Value}
			l := strNodes[k]
			if l == nil {
				l = &nodeList[*ast.StringExpr]{}
				strNodes[k] = l
			}
			l.nodes = append(l.nodes, n)
			nStrs++
			continue
		case *ast.WhileStmt:
			loop(n, "while")
		case *ast.NumberForStmt, *ast.GenericForStmt:
			loop(n.(ast.Stmt), "for")
		case *ast.RepeatStmt:
			loop(n, "repeat")
			// Body first, then the condition.
			stack = append(stack, n.Condition)
			for i := len(n.Stmts) - 1; i >= 0; i-- {
				stack = append(stack, n.Stmts[i])
			}
			continue
		case *ast.ArithmeticOpExpr:
			stack = append(stack, n.Rhs, opMark{n, n.Operator}, n.Lhs)
			continue
		case *ast.RelationalOpExpr:
			stack = append(stack, n.Rhs, opMark{n, n.Operator}, n.Lhs)
			continue
		case *ast.StringConcatOpExpr:
			stack = append(stack, n.Rhs, opMark{n, ".."}, n.Lhs)
			continue
		case *ast.UnaryMinusOpExpr:
			stack = append(stack, n.Expr, opMark{n, "-"})
			continue
		case *ast.FuncCallExpr:
			// obj:m(args): the receiver comes first in the text.
			for i := len(n.Args) - 1; i >= 0; i-- {
				stack = append(stack, n.Args[i])
			}
			if n.Func != nil {
				stack = append(stack, n.Func)
			}
			if n.Receiver != nil {
				stack = append(stack, n.Receiver)
			}
			continue
		}
		buf = children(n, buf[:0])
		for i := len(buf) - 1; i >= 0; i-- {
			stack = append(stack, buf[i])
		}
	}
	p := positions{strs: make(map[*ast.StringExpr]Position, nStrs), ops: make(map[ast.Expr]Position, nOps), loops: map[ast.Stmt]Position{}}
	// Only the tokens that can pair with a node are turned into strings:
	// a string per token was a tenth of the checker's allocations.
	l := ts.list
	for i, t := range l {
		switch {
		case t.typ == tString || t.typ == tIdent && isFieldName(l, i, ts.src):
			if nl := strNodes[strSlot{int(t.line), string(ts.src[t.start:t.end])}]; nl != nil && nl.seen < len(nl.nodes) {
				p.strs[nl.nodes[nl.seen]] = Position{Line: int(t.line), Column: int(t.col)}
				nl.seen++
			}
		case t.typ == kwOther && len(loopNodes) > 0:
			if nl := loopNodes[strSlot{int(t.line), string(ts.src[t.start:t.end])}]; nl != nil && nl.seen < len(nl.nodes) {
				p.loops[nl.nodes[nl.seen]] = Position{Line: int(t.line), Column: int(t.col)}
				nl.seen++
			}
		case t.typ == tOp || t.typ < 256:
			if nl := opNodes[string(ts.src[t.start:t.end])]; nl != nil && nl.seen < len(nl.nodes) {
				p.ops[nl.nodes[nl.seen]] = Position{Line: int(t.line), Column: int(t.col)}
				nl.seen++
			}
		}
	}
	return p
}

// isFieldName: a name token the parser turns into a string key: "t.name"
// or "{name = v}".
func isFieldName(l []token, i int, src []byte) bool {
	if i > 0 && l[i-1].typ == '.' {
		return true
	}
	if i > 0 && i+1 < len(l) && (l[i-1].typ == '{' || l[i-1].typ == ',' || l[i-1].typ == ';') && l[i+1].typ == '=' {
		return true
	}
	return false
}

// reportLoop reports rule at the keyword of loop statement s, falling
// back to the first token spelled keyword on its line.
func (in *interp) reportLoop(s ast.Stmt, keyword, rule, format string, args ...any) {
	if p, ok := in.pos.loops[s]; ok {
		in.c.reportCol(p.Line, p.Column, rule, format, args...)
		return
	}
	in.c.reportAt(s.Line(), keyword, rule, format, args...)
}

// opPos is where an operator node's operator is, falling back to the first
// token spelled op on the node's line.
func (in *interp) opPos(e ast.Expr, line int, op string) (int, int) {
	if p, ok := in.pos.ops[e]; ok {
		return p.Line, p.Column
	}
	return line, in.c.toks.column(line, op)
}
