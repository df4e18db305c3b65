package luacheck

import (
	"fmt"
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// nilBulk are the commands whose reply is a nil bulk string (false in Lua)
// when the key, field or member is missing or the condition fails. Redis
// 7.0's command table has no reply schema, so they are listed; a test
// checks each against a real server.
var nilBulk = map[string]bool{
	"GET": true, "GETDEL": true, "GETEX": true, "GETSET": true, "HGET": true,
	"LINDEX": true, "LPOP": true, "RPOP": true, "LMOVE": true, "RPOPLPUSH": true,
	"SPOP": true, "SRANDMEMBER": true, "ZSCORE": true, "ZRANK": true,
	"ZREVRANK": true, "LPOS": true, "HRANDFIELD": true,
	"SET": true,
}

// arrayReply are commands whose reply is an array: in Lua a table, empty
// when the key is missing or nothing matches (a test checks each on a
// real server).
var arrayReply = map[string]bool{
	"LRANGE": true, "ZRANGE": true, "ZREVRANGE": true, "ZRANGEBYSCORE": true,
	"ZREVRANGEBYSCORE": true, "ZRANGEBYLEX": true, "ZREVRANGEBYLEX": true,
	"SMEMBERS": true, "SINTER": true, "SUNION": true, "SDIFF": true,
	"HGETALL": true, "HKEYS": true, "HVALS": true, "KEYS": true,
	"XRANGE": true, "XREVRANGE": true, "SORT": true, "ZPOPMIN": true, "ZPOPMAX": true,
}

// relational runs LUA303 (a reply compared with nil), LUA305's comparison
// with true or false, and the ordering half of LUA304.
func (in *interp) relational(e *ast.RelationalOpExpr, l, r value) {
	opLine, opCol := in.opPos(e, e.Line(), e.Operator)
	switch e.Operator {
	case "==", "~=":
		if in.boolCompare(e, l, r, opLine, opCol) || e == in.quietNil {
			return
		}
		other := l
		if _, ok := e.Lhs.(*ast.NilExpr); !ok {
			if _, ok := e.Rhs.(*ast.NilExpr); !ok {
				return
			}
		} else {
			other = r
		}
		if other.kind != kReply || !other.direct {
			return
		}
		never := "never true"
		if e.Operator == "~=" {
			never = "always true"
		}
		switch {
		case arrayReply[other.cmd]:
			in.c.reportCol(opLine, opCol, RuleNilCompare, "the reply of %s is compared with nil: it is a table, empty when nothing matches (never nil or false), so this is %s (test #reply == 0)", other.cmd, never)
		case nilBulk[other.cmd]:
			in.c.reportCol(opLine, opCol, RuleNilCompare, "the reply of %s is compared with nil: a missing value arrives as false, never nil, so this is %s (test it with \"not\" or == false)", other.cmd, never)
		default:
			in.c.reportCol(opLine, opCol, RuleNilCompare, "the reply of %s is compared with nil: a redis.call reply is never nil (a nil reply arrives as false, an empty array as an empty table), so this is %s", orSome(other.cmd), never)
		}
	case "<", "<=", ">", ">=":
		for _, v := range []value{l, r} {
			if v.maybeNil && v.cmd != "" {
				in.c.reportCol(opLine, opCol, RuleMaybeNil, "%s compared with %s: %s, and comparing it raises an error (guard it or use \"or 0\")", describeMaybeNil(v), e.Operator, whenNil(v))
				return
			}
		}
	}
}

// arithmetic is the arithmetic half of LUA304.
func (in *interp) arithmetic(e ast.Expr, line int, op string, v value) {
	if !v.maybeNil || v.cmd == "" {
		return
	}
	l, col := in.opPos(e, line, op)
	in.c.reportCol(l, col, RuleMaybeNil, "arithmetic (%s) on %s: %s, and arithmetic on it raises an error (guard it or use \"or 0\")", op, describeMaybeNil(v), whenNil(v))
}

// stringSubject is LUA304 for a string function of the sandbox given, as
// the string it works on, a reply that may be false (HGET of a missing
// field): string.find(false, p) raises "bad argument #1 to 'find' (string
// expected, got boolean)".
func (in *interp) stringSubject(e *ast.FuncCallExpr, lib string, v value) {
	name, ok := strings.CutPrefix(lib, "string.")
	if !ok || !v.maybeNil || v.cmd == "" {
		return
	}
	switch name {
	case "find", "match", "gmatch", "gsub", "sub", "len", "lower", "upper", "rep", "reverse", "byte":
	default:
		return
	}
	line := e.Line()
	in.c.reportCol(line, in.c.toks.column(line, name), RuleMaybeNil, "%s given %s: %s, and %s raises an error on it (\"string expected, got %s\"; guard it or use \"or ''\")", lib, describeMaybeNil(v), whenNil(v), lib, missingType(v))
}

// missingType is the Lua type of v when the value is missing.
func missingType(v value) string {
	if v.kind == kReply {
		return "boolean"
	}
	return "nil"
}

func describeMaybeNil(v value) string {
	if v.kind == kReply {
		return "the reply of " + orSome(v.cmd)
	}
	return "tonumber of the reply of " + orSome(v.cmd)
}

func whenNil(v value) string {
	if v.kind == kReply {
		return "it is false when the value is missing"
	}
	return "it is nil when the value is missing"
}

// nilBesideFalse finds the nil test of "v ~= nil and v ~= false" or
// "v == nil or v == false": the false test does the work, and the nil test
// is redundant but harmless, so LUA303 would only be noise there.
func nilBesideFalse(e *ast.LogicalOpExpr) *ast.RelationalOpExpr {
	op := "~="
	if e.Operator == "or" {
		op = "=="
	}
	l, lok := e.Lhs.(*ast.RelationalOpExpr)
	r, rok := e.Rhs.(*ast.RelationalOpExpr)
	if !lok || !rok || l.Operator != op || r.Operator != op {
		return nil
	}
	name := func(x *ast.RelationalOpExpr, want func(ast.Expr) bool) string {
		if id, ok := x.Lhs.(*ast.IdentExpr); ok && want(x.Rhs) {
			return id.Value
		}
		if id, ok := x.Rhs.(*ast.IdentExpr); ok && want(x.Lhs) {
			return id.Value
		}
		return ""
	}
	isNil := func(x ast.Expr) bool { _, ok := x.(*ast.NilExpr); return ok }
	isFalse := func(x ast.Expr) bool { _, ok := x.(*ast.FalseExpr); return ok }
	for _, p := range [][2]*ast.RelationalOpExpr{{l, r}, {r, l}} {
		if n := name(p[0], isNil); n != "" && n == name(p[1], isFalse) {
			return p[0]
		}
	}
	return nil
}
