package luacheck

import (
	"strconv"
	"strings"
	"testing"
)

// syntaxLevelForms are scripts nested n levels in one form, with the
// largest n Redis 7.0's Lua compiles (TestRedisSyntaxLevels checks each on
// a real server); unlimited forms nest without raising Lua's level.
var syntaxLevelForms = []struct {
	name   string
	max    int // 0: no limit
	script func(n int) string
}{
	{"concat return", 198, func(n int) string { return "return " + strings.Repeat("'a' .. ", n) + "'a'" }},
	{"concat local", 198, func(n int) string { return "local x = " + strings.Repeat("'a' .. ", n) + "'a' return #x" }},
	{"concat in function", 197, func(n int) string {
		return "local function f() return " + strings.Repeat("'a' .. ", n) + "'a' end return #f()"
	}},
	{"power", 198, func(n int) string { return "return " + strings.Repeat("1 ^ ", n) + "1" }},
	{"parens", 198, func(n int) string { return "return " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }},
	{"not", 198, func(n int) string { return "return " + strings.Repeat("not ", n) + "1" }},
	{"do blocks", 199, func(n int) string { return strings.Repeat("do ", n) + strings.Repeat("end ", n) + "return 1" }},
	{"functions", 99, func(n int) string {
		return strings.Repeat("local f = function() ", n) + strings.Repeat("end ", n) + "return 1"
	}},
	{"tables", 199, func(n int) string { return "return " + strings.Repeat("{", n) + strings.Repeat("}", n) }},
	{"calls", 198, func(n int) string {
		return "local f = function(x) return x end return " + strings.Repeat("f(", n) + "1" + strings.Repeat(")", n)
	}},
	{"ifs", 0, nil},
	{"while", 0, nil},
	{"elseif chain", 0, func(n int) string {
		return "local x = tonumber(ARGV[1]) if x == 0 then return 0 " + strings.Repeat("elseif x == 1 then return 1 ", n) + "end return 2"
	}},
	{"plus chain", 0, func(n int) string { return "return " + strings.Repeat("1 + ", n) + "1" }},
	{"field chain", 0, func(n int) string { return "local t = {} t.t = t return t" + strings.Repeat(".t", n) + " and 1" }},
}

func init() {
	for i := range syntaxLevelForms {
		switch syntaxLevelForms[i].name {
		case "ifs":
			syntaxLevelForms[i].max = 199
			syntaxLevelForms[i].script = func(n int) string {
				return strings.Repeat("if ARGV then ", n) + strings.Repeat("end ", n) + "return 1"
			}
		case "while":
			syntaxLevelForms[i].max = 198
			syntaxLevelForms[i].script = func(n int) string {
				return strings.Repeat("while not ARGV do ", n) + strings.Repeat("end ", n) + "return 1"
			}
		}
	}
}

func nestingFinding(fs []Finding) bool {
	for _, f := range fs {
		if f.Rule == RuleSyntax && strings.Contains(f.Message, "levels") {
			return true
		}
	}
	return false
}

// TestSyntaxLevels: each form is checked up to the depth Lua accepts and
// refused one level beyond; unlimited forms are checked at 1,000 levels.
func TestSyntaxLevels(t *testing.T) {
	for _, form := range syntaxLevelForms {
		t.Run(form.name, func(t *testing.T) {
			if form.max == 0 {
				if fs := Check([]byte(form.script(1000)), Options{}); nestingFinding(fs) {
					t.Errorf("1000 levels: %v", fs)
				}
				return
			}
			if fs := Check([]byte(form.script(form.max)), Options{}); nestingFinding(fs) {
				t.Errorf("%d levels: %v", form.max, fs)
			}
			if fs := Check([]byte(form.script(form.max+1)), Options{}); !nestingFinding(fs) {
				t.Errorf("%d levels: no finding (%v)", form.max+1, fs)
			}
		})
	}
}

// limitForms are scripts at a compile-time limit of Redis's Lua other
// than nesting: n active locals (loop state and a vararg function's
// implicit arg count) or upvalues; max is the largest n Redis compiles.
var limitForms = []struct {
	name, want string
	max        int
	script     func(n int) string
}{
	{"main locals", "main function has more than 200 local variables", 200, func(n int) string {
		return localsList(n) + " return 1"
	}},
	{"function locals", "function at line 2 has more than 200 local variables", 200, func(n int) string {
		return "local x = 1\nlocal function f()\n" + localsList(n) + " return 1 end return f()"
	}},
	{"locals and a for loop", "main function has more than 200 local variables", 196, func(n int) string {
		return localsList(n) + " for i = 1, 2 do end return 1"
	}},
	{"vararg function", "function at line 1 has more than 200 local variables", 199, func(n int) string {
		return "local function f(...) " + localsList(n) + " return 1 end return f()"
	}},
	{"upvalues", "function at line 2 has more than 60 upvalues", 60, func(n int) string {
		var b strings.Builder
		b.WriteString(localsList(n) + "\nlocal function f() return 0")
		for i := range n {
			b.WriteString(" + v" + strconv.Itoa(i))
		}
		b.WriteString(" end return f()")
		return b.String()
	}},
}

func localsList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("local v" + strconv.Itoa(i) + " = " + strconv.Itoa(i) + " ")
	}
	return b.String()
}

// TestCompileLimits: at the limit the script is checked, one beyond it
// gets one LUA001 naming the function as Lua does, and nothing else.
func TestCompileLimits(t *testing.T) {
	for _, form := range limitForms {
		t.Run(form.name, func(t *testing.T) {
			if fs := Check([]byte(form.script(form.max)), Options{}); len(fs) != 0 {
				t.Errorf("at the limit: %v", fs)
			}
			f := only(t, Check([]byte(form.script(form.max+1)), Options{}), RuleSyntax)
			if !strings.HasPrefix(f.Message, form.want) {
				t.Errorf("message %q, want it to start %q", f.Message, form.want)
			}
		})
	}
}
