package luacheck

import (
	"fmt"

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

// relational runs LUA303 (a reply compared with nil) and the ordering half
// of LUA304.
func (in *interp) relational(e *ast.RelationalOpExpr, l, r value) {
	switch e.Operator {
	case "==", "~=":
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
		in.c.reportAt(e.Line(), e.Operator, RuleNilCompare, "the reply of %s is compared with nil: Redis turns a nil reply into false, never nil, so this is %s (test it with \"not\" or == false)", orSome(other.cmd), never)
	case "<", "<=", ">", ">=":
		for _, v := range []value{l, r} {
			if v.maybeNil && v.cmd != "" {
				in.c.reportAt(e.Line(), e.Operator, RuleMaybeNil, "%s compared with %s: %s, and comparing it raises an error (guard it or use \"or 0\")", describeMaybeNil(v), e.Operator, whenNil(v))
				return
			}
		}
	}
}

// arithmetic is the arithmetic half of LUA304.
func (in *interp) arithmetic(line int, op string, v value) {
	if !v.maybeNil || v.cmd == "" {
		return
	}
	in.c.reportAt(line, op, RuleMaybeNil, "arithmetic (%s) on %s: %s, and arithmetic on it raises an error (guard it or use \"or 0\")", op, describeMaybeNil(v), whenNil(v))
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
