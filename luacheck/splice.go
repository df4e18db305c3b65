package luacheck

import (
	"bytes"
	"slices"

	"github.com/yuin/gopher-lua/ast"
)

// Scripts assembled from includes repeat the same helper text in every
// script that includes it: BullMQ's helpers make up more than half of the
// text its commands are checked as. Each run parses the text of a piece
// (a segment: lines of one file between include directives) once, and the
// script is put together from the pieces' syntax trees and tokens,
// renumbered to the lines they have in the joined script, instead of
// parsing the joined text again. The analysis still runs on the whole
// script, as Redis receives it: what a helper sees of its includer (the
// keys and arguments passed, the locals defined before it) is unchanged.
//
// The pieces stand for the joined text only when parsing the joined text
// would give the same tree: each piece is a list of whole statements, no
// piece but the first starts with "(" (which could continue the previous
// statement as a call), and no statement follows a return or break. The
// joined text is scanned and parsed as before otherwise, and its errors
// are reported as before.

// piece is what a run keeps of one piece's text: its statements and tokens,
// numbered from line 1 and byte 0. ok is false when the text cannot be
// used alone (see above), and the joined text is parsed instead.
type piece struct {
	ok bool
	// paren: the first token is "("; last: the last statement is a
	// return or a break.
	paren, last bool
	stmts       []ast.Stmt
	toks        []token
	// nodes counts what a copy of stmts takes from treeCopy's blocks.
	nodes treeCopy
}

type pieceKey struct {
	text     string
	maxDepth int
}

// piece returns the parsed piece for text, parsing it on first use. The
// result is shared and must not be modified.
func (c *fileCache) piece(text []byte, maxDepth int) *piece {
	if c == nil {
		return parsePiece(text, maxDepth)
	}
	c.mu.Lock()
	p, ok := c.pieces[pieceKey{string(text), maxDepth}]
	c.mu.Unlock()
	if ok {
		return p
	}
	p = parsePiece(text, maxDepth)
	c.mu.Lock()
	if c.pieces == nil {
		c.pieces = map[pieceKey]*piece{}
	}
	if q, ok := c.pieces[pieceKey{string(text), maxDepth}]; ok {
		p = q // another worker parsed it first: share one tree
	} else {
		c.pieces[pieceKey{string(text), maxDepth}] = p
	}
	c.mu.Unlock()
	return p
}

// parsePiece scans and parses one piece.
func parsePiece(text []byte, maxDepth int) *piece {
	p := &piece{}
	// A piece on its own is a small script: no byte order mark, no
	// shebang (the fast path is not taken for scripts that have either),
	// and over no limit the joined script is under.
	buf := tokenPool.Get().(*[]token)
	toks, deep := scanTokens(text, maxDepth, *buf)
	*buf = toks.list[:0]
	if deep.line == 0 && !deep.tooMany {
		var stmts []ast.Stmt
		var err error
		if len(toks.list) > 0 {
			// Text between two directives is often only comments.
			stmts, err = parseChunk(text, "")
		}
		if err == nil && knownNodes(stmts, &p.nodes) {
			p.ok = true
			p.stmts = stmts
			p.toks = slices.Clone(toks.list)
			p.paren = len(toks.list) > 0 && toks.list[0].typ == '('
			if n := len(stmts); n > 0 {
				switch stmts[n-1].(type) {
				case *ast.ReturnStmt, *ast.BreakStmt:
					p.last = true
				}
			}
		}
	}
	tokenPool.Put(buf)
	return p
}

// splice is the input of a script assembled from pieces: the segments
// of the joined text (with their byte offsets) and the run's cache.
type splice struct {
	segs  []segment
	files *fileCache
}

// build returns the joined script's tokens (appended to buf) and
// statements, renumbered to the joined text src, or ok false when the
// joined text must be scanned and parsed instead.
func (sp *splice) build(src []byte, maxDepth int, buf []token) (toks []token, chunk []ast.Stmt, ok bool) {
	toks = buf[:0]
	pieces := make([]*piece, len(sp.segs))
	lastStmts := -1 // the last piece with statements
	for i, s := range sp.segs {
		end := len(src)
		if i+1 < len(sp.segs) {
			end = sp.segs[i+1].off
		}
		text := src[s.off:end]
		// The scanner counts a lone '\r' as a line break, which the
		// assembler's line numbers do not: leave such text to the joined
		// scan.
		if bytes.IndexByte(text, '\r') >= 0 {
			return buf, nil, false
		}
		p := sp.files.piece(text, maxDepth)
		if !p.ok || (p.paren && i > 0) {
			return buf, nil, false
		}
		pieces[i] = p
		if len(p.stmts) > 0 {
			if lastStmts >= 0 && pieces[lastStmts].last {
				return buf, nil, false // a statement after a return
			}
			lastStmts = i
		}
	}
	n := 0
	for _, p := range pieces {
		n += len(p.toks)
	}
	if n > maxTokens {
		return buf, nil, false
	}
	var sum treeCopy
	for _, p := range pieces {
		sum.add(&p.nodes)
	}
	c := sum.reserved()
	for i, p := range pieces {
		s := sp.segs[i]
		dl, db := int32(s.from-1), int32(s.off)
		for _, t := range p.toks {
			t.line += dl
			t.start += db
			t.end += db
			toks = append(toks, t)
		}
		for _, st := range p.stmts {
			chunk = append(chunk, c.cloneStmt(st, s.from-1))
		}
	}
	return toks, chunk, true
}

// knownNodes: the clones below know every node of stmts (a later
// gopher-lua could add node types; the joined text is parsed then). It
// walks stmts as a copy would, and counts in count what a copy takes
// from treeCopy's blocks.
func knownNodes(stmts []ast.Stmt, count *treeCopy) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var walk treeCopy
	walk.counting(true)
	walk.cloneStmts(stmts, 0)
	*count = treeCopy{} // the counts, without the walk's scratch values
	count.add(&walk)
	return true
}

// The clones renumber lines by d. Every node type of gopher-lua's ast
// package is copied; ParList's names are shared, as nothing changes them.

// treeCopy copies the pieces of one script. The nodes most copied and
// the lists of statements and expressions come from arrays sized for the
// script, counted once per piece: one allocation per node or list was
// 18% of the allocations of a run over the real-world set, half of them
// names, strings, numbers and calls, a fifth the lists.
type treeCopy struct {
	idents    block[ast.IdentExpr]
	strings   block[ast.StringExpr]
	numbers   block[ast.NumberExpr]
	calls     block[ast.FuncCallExpr]
	stmtLists lists[ast.Stmt]
	exprLists lists[ast.Expr]
}

// counting switches every block to counting (knownNodes) or back.
func (c *treeCopy) counting(on bool) {
	c.idents.counting, c.strings.counting, c.numbers.counting, c.calls.counting = on, on, on, on
	c.stmtLists.counting, c.exprLists.counting = on, on
}

// add adds other's counts to c's.
func (c *treeCopy) add(other *treeCopy) {
	c.idents.n += other.idents.n
	c.strings.n += other.strings.n
	c.numbers.n += other.numbers.n
	c.calls.n += other.calls.n
	c.stmtLists.n += other.stmtLists.n
	c.exprLists.n += other.exprLists.n
}

// reserved is a copier with c's counts allocated.
func (c *treeCopy) reserved() *treeCopy {
	out := &treeCopy{}
	out.idents.reserve(c.idents.n)
	out.strings.reserve(c.strings.n)
	out.numbers.reserve(c.numbers.n)
	out.calls.reserve(c.calls.n)
	out.stmtLists.reserve(c.stmtLists.n)
	out.exprLists.reserve(c.exprLists.n)
	return out
}

// block hands out values of one type from an array reserved for them.
// While counting it only counts, and one scratch value stands for
// every node.
type block[T any] struct {
	free     []T
	counting bool
	n        int
	scratch  T
}

func (b *block[T]) reserve(n int) {
	if n > 0 {
		b.free = make([]T, n)
	}
}

func (b *block[T]) take() *T {
	if b.counting {
		b.n++
		return &b.scratch
	}
	if len(b.free) == 0 {
		return new(T) // more than counted: cannot happen, but stay correct
	}
	n := &b.free[0]
	b.free = b.free[1:]
	return n
}

// lists hands out slices of n elements from an array reserved for them,
// each with no room beyond n: an append to one cannot write into the
// next.
type lists[T any] struct {
	free     []T
	counting bool
	n        int
	scratch  []T
}

func (l *lists[T]) reserve(n int) {
	if n > 0 {
		l.free = make([]T, n)
	}
}

func (l *lists[T]) take(n int) []T {
	if n == 0 {
		return []T{} // empty, not nil, as the parser leaves it
	}
	if l.counting {
		l.n += n
		if len(l.scratch) < n {
			l.scratch = make([]T, n)
		}
		return l.scratch[:n:n]
	}
	if len(l.free) < n {
		return make([]T, n) // more than counted: cannot happen, but stay correct
	}
	out := l.free[:n:n]
	l.free = l.free[n:]
	return out
}

func at[T ast.PositionHolder](n T, from ast.PositionHolder, d int) T {
	// The parser leaves some lines unset (0): they stay so.
	if l := from.Line(); l != 0 {
		n.SetLine(l + d)
	}
	if l := from.LastLine(); l != 0 {
		n.SetLastLine(l + d)
	}
	return n
}

func (c *treeCopy) cloneStmts(l []ast.Stmt, d int) []ast.Stmt {
	if l == nil {
		return nil
	}
	out := c.stmtLists.take(len(l))
	for i, s := range l {
		out[i] = c.cloneStmt(s, d)
	}
	return out
}

func (c *treeCopy) cloneExprs(l []ast.Expr, d int) []ast.Expr {
	if l == nil {
		return nil
	}
	out := c.exprLists.take(len(l))
	for i, e := range l {
		out[i] = c.cloneExpr(e, d)
	}
	return out
}

func (c *treeCopy) cloneStmt(s ast.Stmt, d int) ast.Stmt {
	switch s := s.(type) {
	case *ast.AssignStmt:
		return at(&ast.AssignStmt{Lhs: c.cloneExprs(s.Lhs, d), Rhs: c.cloneExprs(s.Rhs, d)}, s, d)
	case *ast.LocalAssignStmt:
		return at(&ast.LocalAssignStmt{Names: s.Names, Exprs: c.cloneExprs(s.Exprs, d)}, s, d)
	case *ast.FuncCallStmt:
		return at(&ast.FuncCallStmt{Expr: c.cloneExpr(s.Expr, d)}, s, d)
	case *ast.DoBlockStmt:
		return at(&ast.DoBlockStmt{Stmts: c.cloneStmts(s.Stmts, d)}, s, d)
	case *ast.WhileStmt:
		return at(&ast.WhileStmt{Condition: c.cloneExpr(s.Condition, d), Stmts: c.cloneStmts(s.Stmts, d)}, s, d)
	case *ast.RepeatStmt:
		return at(&ast.RepeatStmt{Condition: c.cloneExpr(s.Condition, d), Stmts: c.cloneStmts(s.Stmts, d)}, s, d)
	case *ast.IfStmt:
		return at(&ast.IfStmt{Condition: c.cloneExpr(s.Condition, d), Then: c.cloneStmts(s.Then, d), Else: c.cloneStmts(s.Else, d)}, s, d)
	case *ast.NumberForStmt:
		return at(&ast.NumberForStmt{Name: s.Name, Init: c.cloneExpr(s.Init, d), Limit: c.cloneExpr(s.Limit, d), Step: c.cloneExpr(s.Step, d), Stmts: c.cloneStmts(s.Stmts, d)}, s, d)
	case *ast.GenericForStmt:
		return at(&ast.GenericForStmt{Names: s.Names, Exprs: c.cloneExprs(s.Exprs, d), Stmts: c.cloneStmts(s.Stmts, d)}, s, d)
	case *ast.FuncDefStmt:
		var name *ast.FuncName
		if s.Name != nil {
			name = &ast.FuncName{Func: c.cloneExpr(s.Name.Func, d), Receiver: c.cloneExpr(s.Name.Receiver, d), Method: s.Name.Method}
		}
		var fn *ast.FunctionExpr
		if s.Func != nil {
			fn = c.cloneExpr(s.Func, d).(*ast.FunctionExpr)
		}
		return at(&ast.FuncDefStmt{Name: name, Func: fn}, s, d)
	case *ast.ReturnStmt:
		return at(&ast.ReturnStmt{Exprs: c.cloneExprs(s.Exprs, d)}, s, d)
	case *ast.BreakStmt:
		return at(&ast.BreakStmt{}, s, d)
	case *ast.LabelStmt:
		return at(&ast.LabelStmt{Name: s.Name}, s, d)
	case *ast.GotoStmt:
		return at(&ast.GotoStmt{Label: s.Label}, s, d)
	}
	panic(sprintf("luacheck: cloning an unknown statement %T", s))
}

func (c *treeCopy) cloneExpr(e ast.Expr, d int) ast.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *ast.TrueExpr:
		return at(&ast.TrueExpr{}, e, d)
	case *ast.FalseExpr:
		return at(&ast.FalseExpr{}, e, d)
	case *ast.NilExpr:
		return at(&ast.NilExpr{}, e, d)
	case *ast.NumberExpr:
		n := c.numbers.take()
		n.Value = e.Value
		return at(n, e, d)
	case *ast.StringExpr:
		n := c.strings.take()
		n.Value = e.Value
		return at(n, e, d)
	case *ast.Comma3Expr:
		return at(&ast.Comma3Expr{AdjustRet: e.AdjustRet}, e, d)
	case *ast.IdentExpr:
		n := c.idents.take()
		n.Value = e.Value
		return at(n, e, d)
	case *ast.AttrGetExpr:
		return at(&ast.AttrGetExpr{Object: c.cloneExpr(e.Object, d), Key: c.cloneExpr(e.Key, d)}, e, d)
	case *ast.TableExpr:
		var fields []*ast.Field
		if e.Fields != nil {
			fields = make([]*ast.Field, len(e.Fields))
			for i, f := range e.Fields {
				fields[i] = &ast.Field{Key: c.cloneExpr(f.Key, d), Value: c.cloneExpr(f.Value, d)}
			}
		}
		return at(&ast.TableExpr{Fields: fields}, e, d)
	case *ast.FuncCallExpr:
		n := c.calls.take()
		*n = ast.FuncCallExpr{Func: c.cloneExpr(e.Func, d), Receiver: c.cloneExpr(e.Receiver, d), Method: e.Method, Args: c.cloneExprs(e.Args, d), AdjustRet: e.AdjustRet}
		return at(n, e, d)
	case *ast.LogicalOpExpr:
		return at(&ast.LogicalOpExpr{Operator: e.Operator, Lhs: c.cloneExpr(e.Lhs, d), Rhs: c.cloneExpr(e.Rhs, d)}, e, d)
	case *ast.RelationalOpExpr:
		return at(&ast.RelationalOpExpr{Operator: e.Operator, Lhs: c.cloneExpr(e.Lhs, d), Rhs: c.cloneExpr(e.Rhs, d)}, e, d)
	case *ast.StringConcatOpExpr:
		return at(&ast.StringConcatOpExpr{Lhs: c.cloneExpr(e.Lhs, d), Rhs: c.cloneExpr(e.Rhs, d)}, e, d)
	case *ast.ArithmeticOpExpr:
		return at(&ast.ArithmeticOpExpr{Operator: e.Operator, Lhs: c.cloneExpr(e.Lhs, d), Rhs: c.cloneExpr(e.Rhs, d)}, e, d)
	case *ast.UnaryMinusOpExpr:
		return at(&ast.UnaryMinusOpExpr{Expr: c.cloneExpr(e.Expr, d)}, e, d)
	case *ast.UnaryNotOpExpr:
		return at(&ast.UnaryNotOpExpr{Expr: c.cloneExpr(e.Expr, d)}, e, d)
	case *ast.UnaryLenOpExpr:
		return at(&ast.UnaryLenOpExpr{Expr: c.cloneExpr(e.Expr, d)}, e, d)
	case *ast.FunctionExpr:
		var pars *ast.ParList
		if e.ParList != nil {
			p := *e.ParList
			pars = &p
		}
		return at(&ast.FunctionExpr{ParList: pars, Stmts: c.cloneStmts(e.Stmts, d)}, e, d)
	}
	panic(sprintf("luacheck: cloning an unknown expression %T", e))
}
