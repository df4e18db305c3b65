package lockcheck

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// fn is one function body: a declaration or a function literal. Literals
// are functions of their own (they run when called, not where written).
type fn struct {
	pass  *analysis.Pass
	body  *ast.BlockStmt
	typ   *ast.FuncType
	decl  *types.Func
	lits  []*fn
	calls []*ast.CallExpr // calls of package functions: possible helpers
	locks []*ast.CallExpr // calls that take a lock by a library's API
	// callback is the Pipelined or TxPipelined call that runs this
	// literal, callbackFn its method.
	callback   *ast.CallExpr
	callbackFn *types.Func
	// events: the function's own Redis calls; all adds what its helpers do.
	events []*event
	all    []*event

	g     *cfg.CFG
	where map[ast.Node]loc
}

// loc is a place in the control-flow graph: a node of a block.
type loc struct {
	b *cfg.Block
	i int
}

// graph builds the function's control-flow graph on first use.
func (f *fn) graph() *cfg.CFG {
	if f.g != nil {
		return f.g
	}
	f.g = cfg.New(f.body, func(call *ast.CallExpr) bool { return !noReturn(f.pass, call) })
	f.where = map[ast.Node]loc{}
	for _, b := range f.g.Blocks {
		for i, n := range b.Nodes {
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.FuncLit:
					return false
				case *ast.CallExpr:
					f.where[m] = loc{b, i}
				}
				return true
			})
		}
	}
	return f.g
}

// noReturn reports calls that end the program or the goroutine.
func noReturn(pass *analysis.Pass, call *ast.CallExpr) bool {
	switch fn := typeutil.Callee(pass.TypesInfo, call).(type) {
	case *types.Builtin:
		return fn.Name() == "panic"
	case *types.Func:
		if fn.Pkg() == nil {
			return false
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln", "runtime.Goexit":
			return true
		}
	}
	return false
}

// locOf is where call c is evaluated, if the graph has it.
func (f *fn) locOf(c *ast.CallExpr) (loc, bool) {
	f.graph()
	l, ok := f.where[c]
	return l, ok && l.b.Live
}

// before reports whether, on some path through the function, a is
// evaluated and then b (possibly in a later iteration of a loop).
func (f *fn) before(a, b *ast.CallExpr) bool {
	la, ok1 := f.locOf(a)
	lb, ok2 := f.locOf(b)
	if !ok1 || !ok2 {
		return false
	}
	if la.b == lb.b {
		if lb.i > la.i {
			return true
		}
		if lb.i == la.i && evaluatedBefore(a, b) {
			return true
		}
	}
	return reaches(la.b.Succs, lb.b, nil)
}

// evaluatedBefore orders two calls of one statement: arguments are
// evaluated before the call that takes them, and left before right.
func evaluatedBefore(a, b *ast.CallExpr) bool {
	if b.Pos() <= a.Pos() && a.End() <= b.End() {
		return a != b
	}
	return a.End() <= b.Pos()
}

// reaches reports whether target is reachable from any of from, never
// passing through avoid.
func reaches(from []*cfg.Block, target, avoid *cfg.Block) bool {
	seen := map[*cfg.Block]bool{}
	stack := append([]*cfg.Block(nil), from...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == avoid || seen[b] {
			continue
		}
		if b == target {
			return true
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return false
}

// decidedBy reports whether reaching b from a depends on a branch whose
// condition satisfies cond: some two-way branch reachable from a (or
// ending a's block) from which one side leads to b and the other cannot
// without coming back through the branch.
func (f *fn) decidedBy(a, b *ast.CallExpr, cond func(ast.Expr) bool) bool {
	la, ok1 := f.locOf(a)
	lb, ok2 := f.locOf(b)
	if !ok1 || !ok2 {
		return false
	}
	for _, br := range f.g.Blocks {
		if !br.Live || len(br.Succs) != 2 || len(br.Nodes) == 0 {
			continue
		}
		e, ok := br.Nodes[len(br.Nodes)-1].(ast.Expr)
		if !ok || !cond(e) {
			continue
		}
		if br != la.b && !reaches(la.b.Succs, br, nil) {
			continue
		}
		if br == lb.b {
			continue // b is evaluated before the branch is taken
		}
		t := reaches(br.Succs[:1], lb.b, br)
		u := reaches(br.Succs[1:], lb.b, br)
		if t != u {
			return true
		}
	}
	return false
}

// within reports whether p lies in n.
func within(p token.Pos, n ast.Node) bool { return n.Pos() <= p && p < n.End() }

// loopAround returns the innermost for or range statement of the function
// (not of a nested literal) that holds both a and b, or nil.
func (f *fn) loopAround(a, b *ast.CallExpr) ast.Stmt {
	var loop ast.Stmt
	ast.Inspect(f.body, func(n ast.Node) bool {
		if n == nil || !within(a.Pos(), n) || !within(b.Pos(), n) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loop = n.(ast.Stmt)
		}
		return true
	})
	return loop
}

// beforeInIteration reports whether b can follow a within one iteration of
// loop: without going back through the loop's head.
func (f *fn) beforeInIteration(a, b *ast.CallExpr, loop ast.Stmt) bool {
	la, ok1 := f.locOf(a)
	lb, ok2 := f.locOf(b)
	if !ok1 || !ok2 {
		return false
	}
	if la.b == lb.b && (lb.i > la.i || lb.i == la.i && evaluatedBefore(a, b)) {
		return true
	}
	var head *cfg.Block
	for _, blk := range f.g.Blocks {
		if blk.Stmt == loop && (blk.Kind == cfg.KindForLoop || blk.Kind == cfg.KindRangeLoop) {
			head = blk
			break
		}
	}
	if head == nil {
		return reaches(la.b.Succs, lb.b, nil)
	}
	return reaches(la.b.Succs, lb.b, head)
}
