package luacheck

import (
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// Busy-waits on the clock (LUA102). TIME advances while a script runs
// (TestRedisClockWait), so a loop that polls until TIME passes a deadline
// does end, unlike the polling loops of LUA101; but a script runs alone,
// and every other client waits until that deadline. When the deadline is
// the caller's (a timeout in ARGV, or a field of a payload), the caller
// decides how long the server is blocked, as with any unclamped bound.

// clockWait reports a while or repeat loop whose condition (cond, nil
// when there is none) or one of whose exits compares a clock reading the
// loop takes again on every pass with a deadline from the request or the
// data, and that no cap on the passes also ends. It reports at most once
// per loop.
func (in *interp) clockWait(s ast.Stmt, keyword string, cond ast.Expr, body []ast.Stmt) bool {
	if in.exitsCapped(body, "") || cond != nil && in.hasCap(cond, body) {
		return false
	}
	tests := []ast.Expr{}
	if cond != nil {
		tests = append(tests, cond)
	}
	for _, e := range collectExits(body) {
		tests = append(tests, e.guards...)
	}
	defs := assignments(body)
	var src source
	inspect(exprNodes(tests), func(n any) bool {
		switch n := n.(type) {
		case *ast.FunctionExpr:
			return false
		case *ast.RelationalOpExpr:
			switch n.Operator {
			case "<", "<=", ">", ">=":
				if in.readsClock(n.Lhs, defs, 0) {
					src |= in.deadlineSource(n.Rhs, 0)
				}
				if in.readsClock(n.Rhs, defs, 0) {
					src |= in.deadlineSource(n.Lhs, 0)
				}
			}
		}
		return src == 0
	})
	if src == 0 {
		return false
	}
	in.reportLoop(s, keyword, RuleInputBound, "%s loop waits on the server's clock (TIME) until a deadline from %s with no clamp: TIME moves while a script runs, but nothing else does, so every other client waits for as long as the caller asks (return and retry from the client, or clamp the wait with math.min)", keyword, src.describe())
	return true
}

func exprNodes(es []ast.Expr) []any {
	out := make([]any, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// maxClockDepth bounds how far readsClock follows a local's assignments.
const maxClockDepth = 8

// readsClock reports whether e reads TIME afresh each time it is
// evaluated in the loop: a redis.call('TIME'), a call to a function of the
// script that runs one, or a local the loop body assigns from either
// (defs are the body's assignments).
func (in *interp) readsClock(e ast.Expr, defs map[string][]ast.Expr, depth int) bool {
	if depth > maxClockDepth {
		return false
	}
	found := false
	inspect([]any{e}, func(n any) bool {
		switch n := n.(type) {
		case *ast.FunctionExpr:
			return false
		case *ast.FuncCallExpr:
			if isTimeCall(n, in.globalName(n.Func)) {
				found = true
			} else if id, ok := n.Func.(*ast.IdentExpr); ok && n.Receiver == nil {
				if v := in.scope.lookup(id.Value); v != nil && v.val.fn != nil && v.val.fn.def != nil {
					found = callsTime(v.val.fn.def.Stmts)
				}
			}
		case *ast.IdentExpr:
			for _, d := range defs[n.Value] {
				if in.readsClock(d, defs, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isTimeCall: call is redis.call or redis.pcall of TIME (fn is its
// function's global name).
func isTimeCall(call *ast.FuncCallExpr, fn string) bool {
	if fn != "redis.call" && fn != "redis.pcall" || len(call.Args) == 0 {
		return false
	}
	name, ok := call.Args[0].(*ast.StringExpr)
	return ok && strings.EqualFold(name.Value, "TIME")
}

// callsTime reports whether a function body runs redis.call('TIME') or
// redis.pcall('TIME'), written out. The body is read as written: a
// local named redis would be taken for the sandbox's.
func callsTime(stmts []ast.Stmt) bool {
	found := false
	inspect(stmtNodes(stmts), func(n any) bool {
		if call, ok := n.(*ast.FuncCallExpr); ok && call.Receiver == nil {
			if g, ok := call.Func.(*ast.AttrGetExpr); ok {
				obj, _ := g.Object.(*ast.IdentExpr)
				key, _ := g.Key.(*ast.StringExpr)
				if obj != nil && key != nil && obj.Value == "redis" && isTimeCall(call, "redis."+key.Value) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// deadlineSource is where a deadline compared with the clock comes from,
// as far as the request and stored data decide it: ARGV entries, data
// decoded from them or read from a key, or the locals holding them. The
// clock's own reading, constants and clamped parts (math.min, a value
// already compared with a constant) count for nothing: a local declared
// with an expression other than a call is read through that expression,
// since its value merges the sources of every part ("now + math.min(t,
// 50)" holds ARGV data, but the caller cannot stretch it).
func (in *interp) deadlineSource(e ast.Expr, depth int) source {
	const mask = fromArgv | fromDecoded | fromCallerRange
	if depth > maxClockDepth {
		return 0
	}
	switch x := e.(type) {
	case *ast.IdentExpr:
		v := in.scope.lookup(x.Value)
		switch {
		case v == nil || v.clamped || v.val.clamped:
			return 0
		case v.def != nil:
			// A call's result is what the interpreter made of it
			// (math.min marks its result clamped); an expression is read
			// part by part.
			if _, call := v.def.(*ast.FuncCallExpr); !call {
				return in.deadlineSource(v.def, depth+1)
			}
		}
		return v.val.src & mask
	case *ast.AttrGetExpr:
		if in.isArgvTable(x.Object) {
			return fromArgv
		}
		return in.deadlineSource(x.Object, depth+1)
	case *ast.ArithmeticOpExpr:
		return in.deadlineSource(x.Lhs, depth+1) | in.deadlineSource(x.Rhs, depth+1)
	case *ast.UnaryMinusOpExpr:
		return in.deadlineSource(x.Expr, depth+1)
	case *ast.FuncCallExpr:
		switch in.globalName(x.Func) {
		case "tonumber", "math.floor", "math.ceil", "math.abs":
			if len(x.Args) > 0 {
				return in.deadlineSource(x.Args[0], depth+1)
			}
		}
	}
	return 0
}
