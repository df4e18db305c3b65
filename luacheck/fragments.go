package luacheck

import "github.com/yuin/gopher-lua/ast"

// Multi-file libraries split their scripts into helper files that only
// define functions (BullMQ's includes, sidekiq-unique-jobs' partials,
// qless's class files, which add methods to a table another file creates).
// Such a file does nothing on its own: its functions run when the script
// that includes it calls them, and the free names they read (rcall,
// QlessJob, a local of the including script) are that script's. On the
// real-world set (docs/lua-real-world.md) 288 of 306 LUA302 findings were
// such names. So in a fragment, and in a local function the file never
// names (its body never runs), a name the file does not define is not
// reported; a name of Lua's standard library that the sandbox removes
// fails wherever the code runs and still is.

// removedGlobals are Lua 5.1's standard globals that Redis's sandbox does
// not provide (checked on a real server by TestRedisSandboxGlobals): no
// other file can make them work.
var removedGlobals = map[string]bool{
	"os": true, "io": true, "print": true, "require": true, "package": true,
	"loadfile": true, "dofile": true, "setfenv": true, "getfenv": true,
	"debug": true, "module": true, "newproxy": true, "arg": true,
}

// isFragment reports whether every top-level statement of the chunk
// defines a function ("local function f", "local f = function",
// "function f" or "function T.m" / "function T:m") or a local constant the
// functions share (BullMQ's relay helpers start with "local rangeEnd =
// string.char(255)").
func isFragment(chunk []ast.Stmt) bool {
	if len(chunk) == 0 {
		return false
	}
	for _, s := range chunk {
		switch s := s.(type) {
		case *ast.FuncDefStmt:
		case *ast.LocalAssignStmt:
			if len(s.Exprs) != len(s.Names) {
				return false
			}
			for _, e := range s.Exprs {
				if _, ok := e.(*ast.FunctionExpr); !ok && !constantExpr(e) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// constantExpr: e is computed from literals alone, with the string and
// math libraries at most: no command, no name of another file.
func constantExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.StringExpr, *ast.NumberExpr, *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr:
		return true
	case *ast.StringConcatOpExpr:
		return constantExpr(e.Lhs) && constantExpr(e.Rhs)
	case *ast.ArithmeticOpExpr:
		return constantExpr(e.Lhs) && constantExpr(e.Rhs)
	case *ast.UnaryMinusOpExpr:
		return constantExpr(e.Expr)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if (f.Key != nil && !constantExpr(f.Key)) || !constantExpr(f.Value) {
				return false
			}
		}
		return true
	case *ast.FuncCallExpr:
		get, ok := e.Func.(*ast.AttrGetExpr)
		if !ok {
			return false
		}
		lib, ok := get.Object.(*ast.IdentExpr)
		if !ok || (lib.Value != "string" && lib.Value != "math") || !constantExpr(get.Key) {
			return false
		}
		for _, a := range e.Args {
			if !constantExpr(a) {
				return false
			}
		}
		return true
	}
	return false
}

// unreferencedFunctions returns the bodies of local functions whose name
// is never read in the chunk (names is every identifier walkChunk saw),
// with every function nested in them: their code never runs. Names are
// compared without scopes, so a shadowing local of the same name keeps a
// function referenced; that errs towards reporting.
func unreferencedFunctions(chunk []ast.Stmt, names map[string]bool) map[*ast.FunctionExpr]bool {
	var out map[*ast.FunctionExpr]bool
	inspect(stmtNodes(chunk), func(n any) bool {
		la, ok := n.(*ast.LocalAssignStmt)
		if !ok || len(la.Exprs) != len(la.Names) {
			return true
		}
		for i, e := range la.Exprs {
			fe, ok := e.(*ast.FunctionExpr)
			if !ok || names[la.Names[i]] {
				continue
			}
			if out == nil {
				out = map[*ast.FunctionExpr]bool{}
			}
			inspect([]any{fe}, func(n any) bool {
				if f, ok := n.(*ast.FunctionExpr); ok {
					out[f] = true
				}
				return true
			})
		}
		return true
	})
	return out
}
