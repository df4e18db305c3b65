package luacheck

import (
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// Loops: LUA101 (no bound), LUA102 (bound from caller input or stored
// data), and LUA103's SCAN-until-zero loops. A Redis script blocks the
// whole server while it runs, so a loop's bound is the server's latency.

func (in *interp) loopBody(stmts []ast.Stmt, prelude func()) *loopCtx {
	loop := &loopCtx{}
	in.loops = append(in.loops, loop)
	// The body may run zero or more times: join "ran" with "did not run".
	in.branches(func() {
		saved := in.scope
		in.scope = &scope{parent: saved}
		if prelude != nil {
			prelude()
		}
		for _, s := range stmts {
			in.stmt(s)
		}
		in.scope = saved
	}, nil)
	in.loops = in.loops[:len(in.loops)-1]
	return loop
}

func (in *interp) whileStmt(s *ast.WhileStmt) {
	in.expr(s.Condition)
	// The bound is read before the condition's own comparison counts as
	// a clamp: "while n > 0" does not bound n.
	bound := in.boundOf(s.Condition)
	in.cond(s.Condition)
	loop := in.loopBody(s.Stmts, nil)
	exits := hasExit(s.Stmts)
	if !exits && !isFalsy(s.Condition) {
		if in.neverChanges(s.Condition, s.Stmts, false) {
			in.reportNoBound(s.Line(), "while", s.Condition)
			return
		}
	}
	if !exits {
		in.scanLoop(s.Line(), "while", s.Condition, loop)
		in.reportBound(s.Line(), "while", bound)
	}
}

func (in *interp) repeatStmt(s *ast.RepeatStmt) {
	loop := &loopCtx{}
	in.loops = append(in.loops, loop)
	// "until" sees the body's locals, so it is evaluated in the body scope.
	in.branches(func() {
		saved := in.scope
		in.scope = &scope{parent: saved}
		for _, st := range s.Stmts {
			in.stmt(st)
		}
		in.expr(s.Condition)
		in.cond(s.Condition)
		in.scope = saved
	}, nil)
	in.loops = in.loops[:len(in.loops)-1]
	if hasExit(s.Stmts) {
		return
	}
	if isFalsy(s.Condition) || (!isTruthyConst(s.Condition) && in.neverChanges(s.Condition, s.Stmts, true)) {
		in.reportNoBound(s.Line(), "repeat", s.Condition)
		return
	}
	in.scanLoop(s.Line(), "repeat", s.Condition, loop)
}

func (in *interp) numberFor(s *ast.NumberForStmt) {
	init := in.expr(s.Init)
	limit := in.expr(s.Limit)
	in.expr(s.Step)
	in.loopBody(s.Stmts, func() {
		in.scope.declare(s.Name, value{kind: kNumber, src: init.src | limit.src})
	})
	if !hasExit(s.Stmts) {
		in.reportBound(s.Line(), "for", limit)
	}
}

func (in *interp) genericFor(s *ast.GenericForStmt) {
	var elem, idx value
	var iterated value
	ipairs := false
	if len(s.Exprs) == 1 {
		if call, ok := s.Exprs[0].(*ast.FuncCallExpr); ok && len(call.Args) == 1 && call.Receiver == nil {
			if id, ok := call.Func.(*ast.IdentExpr); ok && (id.Value == "ipairs" || id.Value == "pairs") && in.scope.lookup(id.Value) == nil {
				ipairs = true
				iterated = in.expr(call.Args[0])
			}
		}
	}
	if ipairs {
		switch iterated.kind {
		case kKeys:
			in.c.res.DynamicKeys = true
			elem = value{kind: kString, key: in.holes.next(holeKeysDyn, iterated.label()+"[i]"), hasKey: true}
			idx = value{kind: kNumber, src: fromKeysLen}
		case kArgv:
			elem = value{kind: kString, key: in.holes.next(holeArgvDyn, iterated.label()+"[i]"), hasKey: true, src: fromArgv}
			idx = value{kind: kNumber, src: fromArgv}
		default:
			elem = value{kind: kUnknown, src: iterated.src, cmd: iterated.cmd}
			idx = value{kind: kNumber, src: iterated.src}
		}
	} else {
		mark := in.mark()
		in.exprList(s.Exprs)
		in.release(mark)
	}
	in.loopBody(s.Stmts, func() {
		for i, name := range s.Names {
			v := unknown
			if ipairs && i == 0 {
				v = idx
			} else if ipairs && i == 1 {
				v = elem
			}
			in.scope.declare(name, v)
		}
	})
	if !ipairs || hasExit(s.Stmts) {
		return
	}
	// Iterating over a reply is bounded by the read, which LUA103 judges;
	// iterating over caller input or decoded data is bounded by nobody.
	var bound value
	switch {
	case iterated.kind == kKeys:
		bound = value{src: fromKeysLen}
	case iterated.kind == kArgv:
		bound = value{src: fromArgv}
	case iterated.src&fromDecoded != 0:
		bound = value{src: fromDecoded}
	}
	in.reportBound(s.Line(), "for", bound)
}

// boundOf is the value a while condition compares against, when it is an
// ordering: "while i <= n do".
func (in *interp) boundOf(cond ast.Expr) value {
	r, ok := cond.(*ast.RelationalOpExpr)
	if !ok {
		return value{}
	}
	switch r.Operator {
	case "<", "<=", ">", ">=":
	default:
		return value{}
	}
	// The tainted side is the bound; a counter on the other side is not a
	// clamp.
	for _, v := range []value{in.expr(r.Lhs), in.expr(r.Rhs)} {
		if v.src != 0 && !v.clamped {
			return v
		}
	}
	return value{}
}

func (in *interp) reportBound(line int, keyword string, bound value) {
	src := bound.src & (fromArgv | fromKeysLen | fromReply | fromDecoded)
	if src == 0 || bound.clamped {
		return
	}
	in.c.reportAt(line, keyword, RuleInputBound, "%s loop is bounded by %s with no clamp: the caller or the data decides how long the script blocks the server (clamp it with math.min or break at a fixed maximum)", keyword, src.describe())
}

func (in *interp) reportNoBound(line int, keyword string, cond ast.Expr) {
	why := "its condition never changes"
	switch {
	case isTruthyConst(cond):
		why = "its condition is always true"
	case isFalsy(cond):
		why = "its condition never ends it"
	default:
		if vars := condVars(cond); len(vars) > 0 {
			why = "its condition reads only " + strings.Join(vars, ", ") + ", which the body never changes"
		}
	}
	in.c.reportAt(line, keyword, RuleNoBound, "%s loop never ends: %s and the body has no break, return or error (the server stays BUSY until SCRIPT KILL or SHUTDOWN NOSAVE)", keyword, why)
}

// scanLoop is LUA103 for cursor loops: SCAN/SSCAN/HSCAN/ZSCAN repeated until
// the cursor comes back to "0" with no other way out reads everything.
func (in *interp) scanLoop(line int, keyword string, cond ast.Expr, loop *loopCtx) {
	scan := ""
	for _, c := range loop.cmds {
		switch c {
		case "SCAN", "SSCAN", "HSCAN", "ZSCAN":
			scan = c
		}
	}
	if scan == "" || !isCursorZeroTest(cond) {
		return
	}
	what := "the whole collection"
	if scan == "SCAN" {
		what = "the whole keyspace"
	}
	in.c.reportAt(line, keyword, RuleWholeRead, "%s loop runs until the cursor is 0: it reads %s in one script call, however large (stop after a fixed number of iterations and return the cursor)", scan, what)
}

// isCursorZeroTest: cursor ~= "0" / cursor == "0" (or 0), with nothing
// else in the condition.
func isCursorZeroTest(cond ast.Expr) bool {
	r, ok := cond.(*ast.RelationalOpExpr)
	if !ok || (r.Operator != "==" && r.Operator != "~=") {
		return false
	}
	isZero := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.StringExpr:
			return e.Value == "0"
		case *ast.NumberExpr:
			return e.Value == "0"
		}
		return false
	}
	return isZero(r.Lhs) || isZero(r.Rhs)
}

func isTruthyConst(e ast.Expr) bool {
	switch e.(type) {
	case *ast.TrueExpr, *ast.NumberExpr, *ast.StringExpr:
		return true
	}
	return false
}

func isFalsy(e ast.Expr) bool {
	switch e.(type) {
	case *ast.FalseExpr, *ast.NilExpr:
		return true
	}
	return false
}

// neverChanges reports whether cond can only change through locals that
// neither the body nor any closure writes. Calls, indexing and globals in
// the condition may change, so they make it "may change".
func (in *interp) neverChanges(cond ast.Expr, body []ast.Stmt, repeat bool) bool {
	if isTruthyConst(cond) {
		return true
	}
	if !pureCondition(cond) {
		return false
	}
	written := writtenNames(body, repeat)
	for _, name := range condVars(cond) {
		if in.scope.lookup(name) == nil || written[name] || in.writtenInClosure[name] {
			return false
		}
	}
	return true
}

// pureCondition: only identifiers, constants and operators.
func pureCondition(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.IdentExpr, *ast.NumberExpr, *ast.StringExpr, *ast.TrueExpr, *ast.FalseExpr, *ast.NilExpr:
		return true
	case *ast.LogicalOpExpr:
		return pureCondition(e.Lhs) && pureCondition(e.Rhs)
	case *ast.RelationalOpExpr:
		return pureCondition(e.Lhs) && pureCondition(e.Rhs)
	case *ast.ArithmeticOpExpr:
		return pureCondition(e.Lhs) && pureCondition(e.Rhs)
	case *ast.StringConcatOpExpr:
		return pureCondition(e.Lhs) && pureCondition(e.Rhs)
	case *ast.UnaryNotOpExpr:
		return pureCondition(e.Expr)
	case *ast.UnaryMinusOpExpr:
		return pureCondition(e.Expr)
	}
	return false
}

func condVars(e ast.Expr) []string {
	var out []string
	seen := map[string]bool{}
	stack := []any{e}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id, ok := n.(*ast.IdentExpr); ok && !seen[id.Value] {
			seen[id.Value] = true
			out = append(out, id.Value)
		}
		stack = children(n, stack)
	}
	return out
}

// writtenNames are the names assigned anywhere in stmts, nested functions
// included; with locals, also names declared there (a repeat condition
// sees the body's fresh locals).
func writtenNames(stmts []ast.Stmt, locals bool) map[string]bool {
	out := map[string]bool{}
	stack := make([]any, 0, len(stmts))
	for _, s := range stmts {
		stack = append(stack, s)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.IdentExpr); ok {
					out[id.Value] = true
				}
			}
		case *ast.FuncDefStmt:
			if n.Name != nil {
				if id, ok := n.Name.Func.(*ast.IdentExpr); ok {
					out[id.Value] = true
				}
			}
		case *ast.LocalAssignStmt:
			if locals {
				for _, name := range n.Names {
					out[name] = true
				}
			}
		}
		stack = children(n, stack)
	}
	return out
}

// hasExit reports whether a loop body can leave the loop: a break not
// inside a nested loop, a return, or a call to error/assert, none of them
// inside a nested function.
func hasExit(stmts []ast.Stmt) bool {
	type item struct {
		node       any
		nestedLoop bool
	}
	stack := make([]item, 0, len(stmts))
	for _, s := range stmts {
		stack = append(stack, item{s, false})
	}
	var buf []any
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nested := it.nestedLoop
		switch n := it.node.(type) {
		case *ast.BreakStmt:
			if !nested {
				return true
			}
		case *ast.ReturnStmt:
			return true
		case *ast.FunctionExpr:
			continue
		case *ast.FuncCallExpr:
			if id, ok := n.Func.(*ast.IdentExpr); ok && (id.Value == "error" || id.Value == "assert") {
				return true
			}
		case *ast.WhileStmt, *ast.RepeatStmt, *ast.NumberForStmt, *ast.GenericForStmt:
			nested = true
		}
		buf = children(it.node, buf[:0])
		for _, ch := range buf {
			stack = append(stack, item{ch, nested})
		}
	}
	return false
}
