package luacheck

import (
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// integerReply are commands whose reply, when they succeed, is an integer
// (a number in Lua): 0 and 1 for the yes/no ones (EXISTS, SISMEMBER,
// SETNX, EXPIRE...), a count or a length for the others. Redis 7.0's
// command table has no reply schema, so they are listed; a test checks
// each on a real server.
var integerReply = map[string]bool{
	"EXISTS": true, "HEXISTS": true, "SISMEMBER": true, "SETNX": true,
	"HSETNX": true, "MSETNX": true, "RENAMENX": true, "EXPIRE": true,
	"PEXPIRE": true, "EXPIREAT": true, "PEXPIREAT": true, "PERSIST": true,
	"SMOVE": true, "DEL": true, "UNLINK": true, "SADD": true, "SREM": true,
	"HDEL": true, "ZREM": true, "LREM": true, "LLEN": true, "SCARD": true,
	"ZCARD": true, "HLEN": true, "STRLEN": true, "INCR": true, "DECR": true,
	"INCRBY": true, "DECRBY": true, "HINCRBY": true, "LPUSH": true,
	"RPUSH": true, "HSET": true, "ZCOUNT": true, "TTL": true, "PTTL": true,
	"TOUCH": true, "PUBLISH": true, "GETBIT": true, "SETBIT": true,
	"PFADD": true, "XLEN": true, "COPY": true,
}

// truthTested runs LUA305 on e, an expression whose truth decides
// something: an if, while or repeat condition, the operand of not, an
// operand of and/or. In Lua only nil and false are false: an integer
// reply (0 included) and an array reply (an empty table included) are
// always true. negated: e is the operand of not, which is then always
// false.
func (in *interp) truthTested(e ast.Expr, negated bool) {
	switch x := e.(type) {
	case *ast.LogicalOpExpr:
		// Each operand's own truth is tested; a not around the whole
		// and/or does not make an operand's test always false.
		in.quietTruth(x.Lhs, x.Rhs)
		in.quietTruth(x.Rhs, x.Lhs)
		in.truthTested(x.Lhs, false)
		in.truthTested(x.Rhs, false)
		return
	case *ast.UnaryNotOpExpr:
		in.truthTested(x.Expr, !negated)
		return
	}
	cmd, ok := in.directReply(e)
	if !ok || in.truthDone[e] || (!integerReply[cmd] && !arrayReply[cmd]) {
		return
	}
	line, col := in.replyPos(e)
	outcome := "always true"
	if negated {
		outcome = "always false"
	}
	switch {
	case integerReply[cmd]:
		in.truthDone[e] = true
		in.c.reportCol(line, col, RuleTruthTest, "the reply of %s is tested for truth: it is an integer, and 0 is true in Lua (only nil and false are false), so the test is %s (compare it: == 1, > 0)", cmd, outcome)
	case arrayReply[cmd]:
		in.truthDone[e] = true
		in.c.reportCol(line, col, RuleTruthTest, "the reply of %s is tested for truth: it is a table, and an empty table is true in Lua, so the test is %s (test #reply > 0)", cmd, outcome)
	}
}

// directReply is the command whose reply e is, as is: a redis.call or
// redis.pcall with the command written out, or a local holding such a
// reply.
func (in *interp) directReply(e ast.Expr) (cmd string, ok bool) {
	switch x := e.(type) {
	case *ast.FuncCallExpr:
		if x.Receiver != nil || len(x.Args) == 0 {
			return "", false
		}
		name, isName := x.Args[0].(*ast.StringExpr)
		if !isName {
			return "", false
		}
		if fn := in.globalName(x.Func); fn != "redis.call" && fn != "redis.pcall" {
			return "", false
		}
		return strings.ToUpper(name.Value), true
	case *ast.IdentExpr:
		v := in.scope.lookup(x.Value)
		if v == nil || v.val.kind != kReply || !v.val.direct || v.val.cmd == "" {
			return "", false
		}
		return v.val.cmd, true
	}
	return "", false
}

// replyPos is where e, which directReply accepted, starts. It is looked up
// only for a finding: the identifier index it may build costs more than
// the test itself.
func (in *interp) replyPos(e ast.Expr) (line, col int) {
	switch x := e.(type) {
	case *ast.FuncCallExpr:
		p := in.argPos(x, 0)
		if p.Line == 0 {
			p = Position{Line: x.Line(), Column: in.c.toks.column(x.Line(), "redis")}
		}
		return p.Line, p.Column
	case *ast.IdentExpr:
		p, found := in.identPosition(x)
		if !found {
			p = Position{Line: x.Line(), Column: in.c.toks.column(x.Line(), x.Value)}
		}
		return p.Line, p.Column
	}
	return e.Line(), 0
}

// quietTruth marks operand, a local (or not of one), as a harmless truth
// test when other, the other side of its and/or, reads it again: "head and
// #head > 0", "not zpop or #zpop == 0", "n and n > 0". The test is then
// redundant, the other side doing the work.
func (in *interp) quietTruth(operand, other ast.Expr) {
	for {
		n, ok := operand.(*ast.UnaryNotOpExpr)
		if !ok {
			break
		}
		operand = n.Expr
	}
	id, ok := operand.(*ast.IdentExpr)
	if ok && mentions(other, id.Value) {
		in.truthDone[id] = true
	}
}

// mentions reports whether e, a small expression, reads the name. Past
// 64 nodes it answers no: a long chain of and/or would otherwise be walked
// once per operand.
func mentions(e ast.Expr, name string) bool {
	found, seen := false, 0
	inspect([]any{e}, func(n any) bool {
		if seen++; seen > 64 {
			return false
		}
		if x, ok := n.(*ast.IdentExpr); ok && x.Value == name {
			found = true
		}
		return !found
	})
	return found
}

// boolCompare is LUA305 for "x == true", "x ~= false" and the like where
// x is a number or an integer or array reply: a number or a table never
// equals a boolean in Lua, so the comparison has one outcome whatever x
// holds (a count of matches compared with true counts every match as
// none). It reports whether e compares with a boolean literal.
func (in *interp) boolCompare(e *ast.RelationalOpExpr, l, r value, line, col int) bool {
	lit, side, other := e.Rhs, e.Lhs, l
	if !isBoolLiteral(lit) {
		lit, side, other = e.Lhs, e.Rhs, r
	}
	if !isBoolLiteral(lit) {
		return false
	}
	b := "true"
	if _, ok := lit.(*ast.FalseExpr); ok {
		b = "false"
	}
	outcome := "always false"
	if e.Operator == "~=" {
		outcome = "always true"
	}
	switch {
	case other.kind == kNumber && !other.maybeNil:
		what := "the value"
		if id, ok := side.(*ast.IdentExpr); ok {
			what = id.Value
		}
		in.c.reportCol(line, col, RuleTruthTest, "%s is compared with %s: it is a number, and a number never equals true or false in Lua, so the test is %s (compare the number: > 0, == 0)", what, b, outcome)
	case other.kind == kReply && other.direct && integerReply[other.cmd]:
		in.c.reportCol(line, col, RuleTruthTest, "the reply of %s is compared with %s: it is an integer, and an integer never equals true or false in Lua, so the test is %s (compare it: == 1, > 0)", other.cmd, b, outcome)
	case other.kind == kReply && other.direct && arrayReply[other.cmd]:
		in.c.reportCol(line, col, RuleTruthTest, "the reply of %s is compared with %s: it is a table, and a table never equals true or false in Lua, so the test is %s (test #reply > 0)", other.cmd, b, outcome)
	}
	return true
}

func isBoolLiteral(e ast.Expr) bool {
	switch e.(type) {
	case *ast.TrueExpr, *ast.FalseExpr:
		return true
	}
	return false
}
