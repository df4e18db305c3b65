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
	// Most string nodes are a string token of their own: sizing the map
	// for them spares most of its growth (the growth was 2.7% of the
	// bytes a run over the real-world set allocated).
	nStrTokens := 0
	for _, t := range ts.list {
		if t.typ == tString {
			nStrTokens++
		}
	}
	strNodes := make(map[strSlot]*nodeList[*ast.StringExpr], nStrTokens)
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

// identPosition is where an identifier node is: the k-th reference to a
// name on a line is the k-th token of that name there that is a
// reference (not a field name, a method name or a name a local, a for
// loop or a parameter list declares). The pairing is built on first use,
// for the few findings anchored at a name; a line whose references and
// tokens do not pair one to one gives no position.
func (in *interp) identPosition(e *ast.IdentExpr) (Position, bool) {
	if in.identPos == nil {
		in.identPos = buildIdentPositions(in.chunk, in.c.toks)
	}
	p, ok := in.identPos[e]
	return p, ok
}

func buildIdentPositions(chunk []ast.Stmt, ts tokens) map[*ast.IdentExpr]Position {
	nodes := map[strSlot][]*ast.IdentExpr{}
	stack := make([]any, 0, 64)
	for i := len(chunk) - 1; i >= 0; i-- {
		stack = append(stack, chunk[i])
	}
	var buf []any
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n := n.(type) {
		case *ast.IdentExpr:
			k := strSlot{n.Line(), n.Value}
			nodes[k] = append(nodes[k], n)
			continue
		case *ast.RepeatStmt:
			stack = append(stack, n.Condition)
			for i := len(n.Stmts) - 1; i >= 0; i-- {
				stack = append(stack, n.Stmts[i])
			}
			continue
		case *ast.FuncCallExpr:
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
	toks := map[strSlot][]Position{}
	l := ts.list
	for i, t := range l {
		if t.typ != tIdent || isFieldName(l, i, ts.src) || i > 0 && (l[i-1].typ == ':' || l[i-1].typ == tGoto || l[i-1].typ == tLabel) || isDeclName(l, i, ts.src) {
			continue
		}
		k := strSlot{int(t.line), string(ts.src[t.start:t.end])}
		if _, ok := nodes[k]; ok {
			toks[k] = append(toks[k], Position{Line: int(t.line), Column: int(t.col)})
		}
	}
	out := map[*ast.IdentExpr]Position{}
	for k, ns := range nodes {
		if ps := toks[k]; len(ps) == len(ns) {
			for i, n := range ns {
				out[n] = ps[i]
			}
		}
	}
	return out
}

// isDeclName: the name token at i is declared there, not referenced: in
// "local a, b", "local function f", "for k, v" or a parameter list.
func isDeclName(l []token, i int, src []byte) bool {
	text := func(j int) string { return string(src[l[j].start:l[j].end]) }
	j := i
	for j >= 2 && l[j-1].typ == ',' && l[j-2].typ == tIdent {
		j -= 2
	}
	p := j - 1
	if p < 0 {
		return false
	}
	switch {
	case l[p].typ != tIdent && (text(p) == "local" || text(p) == "for"):
		return true
	case text(p) == "function" && p > 0 && text(p-1) == "local":
		return true
	case l[p].typ == '(':
		// "function (a, b)", "function f(a)", "function t.x:m(a)".
		q := p - 1
		for q >= 2 && l[q].typ == tIdent && (l[q-1].typ == '.' || l[q-1].typ == ':') {
			q -= 2
		}
		if q >= 0 && l[q].typ == tIdent {
			q--
		}
		return q >= 0 && l[q].typ != tIdent && text(q) == "function"
	}
	return false
}

// namePosition is where a finding about the name e belongs: e itself, or
// with keyword "function" the keyword before it ("function foo()",
// "function table.x()"). ok is false when e cannot be placed.
func (in *interp) namePosition(e *ast.IdentExpr, keyword string) (Position, bool) {
	p, ok := in.identPosition(e)
	if !ok || keyword == "" {
		return p, ok
	}
	l := in.c.toks.list
	for i, t := range l {
		if int(t.line) == p.Line && int(t.col) == p.Column {
			if i > 0 && string(in.c.toks.src[l[i-1].start:l[i-1].end]) == keyword {
				return Position{Line: int(l[i-1].line), Column: int(l[i-1].col)}, true
			}
			break
		}
	}
	return Position{}, false
}
