package redisapi

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
)

// maxRuns bounds the sets of commands a transaction is split into; past
// it the transaction's commands are related as one set, as if every
// branch ran.
const maxRuns = 256

// SlotKeyRuns is SlotKeys for each set of commands one run of the
// transaction's code can queue together. Commands in the two branches of
// an if, in two cases of a switch or a select, or before a return and
// after it, never share a run, so they never share a transaction:
// relating their keys would report a CROSSSLOT the code cannot produce.
// Commands in a loop, in a closure or in a helper the transaction is
// passed to share every run with the rest. Without such branches there is
// one run, SlotKeys itself.
func (tx *Tx) SlotKeyRuns() [][]keyexpr.Elem {
	if tx.runs == nil {
		return [][]keyexpr.Elem{tx.SlotKeys()}
	}
	var out [][]keyexpr.Elem
	for _, run := range tx.runs {
		keys := append([]keyexpr.Elem(nil), tx.Watched...)
		for _, i := range run {
			keys = append(keys, firstKey(tx.Calls[i]))
		}
		out = append(out, keys)
	}
	return out
}

// firstKey is the key that stands for a queued command: its first, as
// a later iteration sees it when the command is queued in a loop.
func firstKey(call *Call) keyexpr.Elem {
	first := call.Keys[0]
	if first.Loop == nil && call.Loop != nil {
		first = keyexpr.Elem{Key: first.Key, Expr: first.Expr, Loop: call.Loop}
	}
	return first
}

// splitRuns sets tx.runs when some of its commands exclude each other:
// the maximal sets of commands with keys no two of which exclude each
// other.
func splitRuns(root inspector.Cursor, tx *Tx) {
	var calls []int
	var paths []txPath
	for i, call := range tx.Calls {
		if len(call.Keys) == 0 {
			continue
		}
		calls = append(calls, i)
		paths = append(paths, pathOf(root, tx.body, call.Node))
	}
	if len(calls) < 2 || len(calls) > 64 {
		return
	}
	apart := make([][]bool, len(calls))
	split := false
	for i := range calls {
		apart[i] = make([]bool, len(calls))
	}
	for i := range calls {
		for j := i + 1; j < len(calls); j++ {
			if exclusive(paths[i], paths[j], tx.body) {
				apart[i][j], apart[j][i] = true, true
				split = true
			}
		}
	}
	if !split {
		return
	}
	var runs [][]int
	complete := cliques(apart, func(clique []int) bool {
		run := make([]int, len(clique))
		for k, c := range clique {
			run[k] = calls[c]
		}
		runs = append(runs, run)
		return len(runs) <= maxRuns
	})
	if complete {
		tx.runs = runs
	}
}

// maxSteps bounds the search for the runs; past it the transaction's
// commands are related as one set.
const maxSteps = 20000

// cliques calls f with each maximal set of vertices no two of which are
// apart (Bron–Kerbosch with a pivot, on the complement of apart) while f
// returns true; it reports whether it listed them all within maxSteps.
func cliques(apart [][]bool, f func([]int) bool) bool {
	near := func(v, w int) bool { return v != w && !apart[v][w] }
	steps := 0
	var walk func(r, p, x []int) bool
	walk = func(r, p, x []int) bool {
		if steps++; steps > maxSteps {
			return false
		}
		if len(p) == 0 && len(x) == 0 {
			return f(r)
		}
		// The pivot with the most neighbours in p: only p's vertices
		// apart from it start a branch.
		pivot, most := -1, -1
		for _, set := range [][]int{p, x} {
			for _, u := range set {
				n := 0
				for _, w := range p {
					if near(u, w) {
						n++
					}
				}
				if n > most {
					pivot, most = u, n
				}
			}
		}
		var branches []int
		for _, v := range p {
			if !near(pivot, v) {
				branches = append(branches, v)
			}
		}
		for _, v := range branches {
			var np, nx []int
			for _, w := range p {
				if near(v, w) {
					np = append(np, w)
				}
			}
			for _, w := range x {
				if near(v, w) {
					nx = append(nx, w)
				}
			}
			if !walk(append(r[:len(r):len(r)], v), np, nx) {
				return false
			}
			p = slices.DeleteFunc(slices.Clone(p), func(w int) bool { return w == v })
			x = append(x[:len(x):len(x)], v)
		}
		return true
	}
	all := make([]int, len(apart))
	for i := range all {
		all[i] = i
	}
	return walk(nil, all, nil)
}

// txPath is a queued command's place: its ancestors from the command up,
// each with the edge it hangs from its parent by. ok is false when the
// command's place tells nothing of its runs: outside the transaction's
// body (a helper's command) or inside a closure, a go or a defer there.
type txPath struct {
	nodes []inspector.Cursor // the command's call first, then upward
	ok    bool
}

func pathOf(root inspector.Cursor, body [2]token.Pos, call *ast.CallExpr) txPath {
	if call == nil || !body[0].IsValid() || call.Pos() < body[0] || call.End() > body[1] {
		return txPath{}
	}
	// FindByPos skips the subtrees that end before the call, where
	// FindNode would visit every node that holds a call.
	c, found := root.FindByPos(call.Pos(), call.End())
	for found && c.Node() != nil && c.Node() != ast.Node(call) {
		c = c.Parent()
	}
	if !found || c.Node() == nil {
		return txPath{}
	}
	var p txPath
	for ; c.Node() != nil; c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			// Outside the body, these hold the whole transaction (a
			// TxPipelined callback); inside, its command runs apart.
			if c.Node().Pos() >= body[0] {
				return txPath{}
			}
		}
		p.nodes = append(p.nodes, c)
	}
	p.ok = true
	return p
}

// exclusive reports whether no run of the transaction's code queues both
// commands: they sit in the two branches of an if, in two cases of a
// switch without fallthrough or of a select, or the earlier one sits in
// a block that ends in a return (with no break, continue or goto out of
// it), and no loop of the transaction's body holds the two.
func exclusive(a, b txPath, body [2]token.Pos) bool {
	if !a.ok || !b.ok {
		return false
	}
	onA := map[ast.Node]int{}
	for i, c := range a.nodes {
		onA[c.Node()] = i
	}
	ia, ib := -1, -1
	for j, c := range b.nodes {
		if i, ok := onA[c.Node()]; ok {
			ia, ib = i, j
			break
		}
	}
	if ia <= 0 || ib <= 0 {
		return false // one holds the other, or no common ancestor
	}
	common := a.nodes[ia]
	for _, c := range a.nodes[ia:] {
		if c.Node().Pos() < body[0] {
			break
		}
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false // another iteration takes the other branch
		}
	}
	childA, childB := a.nodes[ia-1], b.nodes[ib-1]
	switch common.Node().(type) {
	case *ast.IfStmt:
		ka, kb := childA.ParentEdgeKind(), childB.ParentEdgeKind()
		return ka == edge.IfStmt_Body && kb == edge.IfStmt_Else ||
			ka == edge.IfStmt_Else && kb == edge.IfStmt_Body
	case *ast.BlockStmt:
		switch sw := common.Parent().Node().(type) {
		case *ast.SelectStmt:
			return true // two clauses of one select
		case *ast.SwitchStmt, *ast.TypeSwitchStmt:
			return !fallsThrough(sw)
		}
		return endsBefore(a, ia, childA, childB) || endsBefore(b, ib, childB, childA)
	case *ast.CaseClause, *ast.CommClause:
		return endsBefore(a, ia, childA, childB) || endsBefore(b, ib, childB, childA)
	}
	return false
}

// endsBefore reports whether the command of p, whose ancestor at index
// top-1 is the statement first of a list, ends the run before the
// statement later of the same list: first comes before later, and a
// block between the command and first ends in a return that nothing
// jumps past.
func endsBefore(p txPath, top int, first, later inspector.Cursor) bool {
	if first.ParentEdgeIndex() >= later.ParentEdgeIndex() {
		return false
	}
	for _, c := range p.nodes[1:top] {
		list := astutil.Stmts(c.Node())
		if len(list) > 0 && terminates(list[len(list)-1]) && !jumps(c.Node()) {
			return true
		}
	}
	return false
}

// terminates reports whether s ends the function: a return or a call of
// panic.
func terminates(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// jumps reports whether n holds a break, continue or goto (outside
// closures), which could leave it before its last statement.
func jumps(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok != token.FALLTHROUGH {
				found = true
			}
		}
		return !found
	})
	return found
}

// fallsThrough reports whether a case of the switch falls through to the
// next.
func fallsThrough(sw ast.Node) bool {
	var body *ast.BlockStmt
	switch sw := sw.(type) {
	case *ast.SwitchStmt:
		body = sw.Body
	case *ast.TypeSwitchStmt:
		body = sw.Body
	}
	for _, s := range body.List {
		cc := s.(*ast.CaseClause)
		if n := len(cc.Body); n > 0 {
			if br, ok := cc.Body[n-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				return true
			}
		}
	}
	return false
}
