package luacheck

import (
	"fmt"

	"github.com/yuin/gopher-lua/ast"
)

// Compile-time limits of Redis's Lua 5.1 (LUAI_MAXVARS, LUAI_MAXUPVALUES):
// a function with more active locals or upvalues fails to compile, with
// "main function has more than 200 local variables" or "function at line
// N has more than 60 upvalues" (both checked on a real server).
const (
	maxLocals   = 200
	maxUpvalues = 60
)

// limitFinding is a compile-time limit a script breaks.
type limitFinding struct {
	line int
	name string // the local or upvalue that went over, for the column
	msg  string
}

// luaFunc is one function being resolved.
type luaFunc struct {
	parent *luaFunc
	line   int // 0 for the main chunk
	active int // locals in scope now, hidden loop state included
	upvals map[*localDecl]bool
	// reported: this function's limits were reported already.
	reportedLocals, reportedUpvals bool
}

func (f *luaFunc) describe() string {
	if f.line == 0 {
		return "main function"
	}
	return fmt.Sprintf("function at line %d", f.line)
}

type localDecl struct{ fn *luaFunc }

// resolver binds names to locals as Lua 5.1's parser does, to count
// active locals and upvalues per function. It recurses on the AST, whose
// depth walkChunk has bounded.
type resolver struct {
	fn    *luaFunc
	names map[string][]*localDecl
	// declared is the stack of names declared in open blocks; a block
	// pops back to its mark.
	declared []string
	found    []limitFinding
}

// checkLimits reports the first breach of each limit per function.
func checkLimits(chunk []ast.Stmt) []limitFinding {
	r := &resolver{fn: &luaFunc{}, names: map[string][]*localDecl{}}
	r.block(chunk)
	return r.found
}

func (r *resolver) declare(name string, line int) {
	f := r.fn
	f.active++
	if f.active > maxLocals && !f.reportedLocals {
		f.reportedLocals = true
		r.found = append(r.found, limitFinding{line, name, fmt.Sprintf("%s has more than %d local variables: Redis refuses to compile the script (\"Error compiling script\"); keep related values in a table or split the function", f.describe(), maxLocals)})
	}
	r.names[name] = append(r.names[name], &localDecl{fn: f})
	r.declared = append(r.declared, name)
}

// open and close bracket a block: locals declared inside go out of scope.
func (r *resolver) open() (int, int) { return len(r.declared), r.fn.active }

func (r *resolver) close(mark, active int) {
	for _, name := range r.declared[mark:] {
		s := r.names[name]
		r.names[name] = s[:len(s)-1]
	}
	r.declared = r.declared[:mark]
	r.fn.active = active
}

// use resolves a name; a local of an enclosing function becomes an upvalue
// of every function between.
func (r *resolver) use(name string, line int) {
	s := r.names[name]
	if len(s) == 0 {
		return // a global
	}
	d := s[len(s)-1]
	for f := r.fn; f != nil && f != d.fn; f = f.parent {
		if f.upvals == nil {
			f.upvals = map[*localDecl]bool{}
		}
		f.upvals[d] = true
		if len(f.upvals) > maxUpvalues && !f.reportedUpvals {
			f.reportedUpvals = true
			r.found = append(r.found, limitFinding{line, name, fmt.Sprintf("%s has more than %d upvalues: Redis refuses to compile the script (\"Error compiling script\"); pass the values as parameters or in a table", f.describe(), maxUpvalues)})
		}
	}
}

func (r *resolver) block(stmts []ast.Stmt) {
	mark, active := r.open()
	for _, s := range stmts {
		r.stmt(s)
	}
	r.close(mark, active)
}

func (r *resolver) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.LocalAssignStmt:
		// "local function f" sees itself; gopher-lua parses "local f =
		// function" alike, where Lua would not: one upvalue at most.
		if len(s.Names) == 1 && len(s.Exprs) == 1 {
			if fe, ok := s.Exprs[0].(*ast.FunctionExpr); ok {
				r.declare(s.Names[0], s.Line())
				r.function(fe, false)
				return
			}
		}
		r.exprs(s.Exprs)
		for _, name := range s.Names {
			r.declare(name, s.Line())
		}
	case *ast.AssignStmt:
		r.exprs(s.Rhs)
		r.exprs(s.Lhs)
	case *ast.FuncCallStmt:
		r.expr(s.Expr)
	case *ast.DoBlockStmt:
		r.block(s.Stmts)
	case *ast.WhileStmt:
		r.expr(s.Condition)
		r.block(s.Stmts)
	case *ast.RepeatStmt:
		// The condition sees the body's locals.
		mark, active := r.open()
		for _, st := range s.Stmts {
			r.stmt(st)
		}
		r.expr(s.Condition)
		r.close(mark, active)
	case *ast.IfStmt:
		r.expr(s.Condition)
		r.block(s.Then)
		r.block(s.Else)
	case *ast.NumberForStmt:
		r.expr(s.Init)
		r.expr(s.Limit)
		r.expr(s.Step)
		mark, active := r.open()
		for _, hidden := range []string{"(for index)", "(for limit)", "(for step)", s.Name} {
			r.declare(hidden, s.Line())
		}
		r.block(s.Stmts)
		r.close(mark, active)
	case *ast.GenericForStmt:
		r.exprs(s.Exprs)
		mark, active := r.open()
		for _, hidden := range []string{"(for generator)", "(for state)", "(for control)"} {
			r.declare(hidden, s.Line())
		}
		for _, name := range s.Names {
			r.declare(name, s.Line())
		}
		r.block(s.Stmts)
		r.close(mark, active)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			r.expr(s.Name.Func)
			r.expr(s.Name.Receiver)
		}
		r.function(s.Func, s.Name != nil && s.Name.Method != "")
	case *ast.ReturnStmt:
		r.exprs(s.Exprs)
	}
}

func (r *resolver) function(fe *ast.FunctionExpr, method bool) {
	if fe == nil {
		return
	}
	saved := r.fn
	r.fn = &luaFunc{parent: saved, line: fe.Line()}
	mark, _ := r.open()
	if method {
		r.declare("self", fe.Line())
	}
	for _, p := range fe.ParList.Names {
		r.declare(p, fe.Line())
	}
	if fe.ParList.HasVargs {
		r.declare("arg", fe.Line()) // Lua 5.1's implicit vararg table
	}
	r.block(fe.Stmts)
	r.close(mark, 0)
	r.fn = saved
}

func (r *resolver) exprs(es []ast.Expr) {
	for _, e := range es {
		r.expr(e)
	}
}

func (r *resolver) expr(e ast.Expr) {
	switch e := e.(type) {
	case nil:
	case *ast.IdentExpr:
		r.use(e.Value, e.Line())
	case *ast.FunctionExpr:
		r.function(e, false)
	case *ast.AttrGetExpr:
		r.expr(e.Object)
		r.expr(e.Key)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			r.expr(f.Key)
			r.expr(f.Value)
		}
	case *ast.FuncCallExpr:
		r.expr(e.Func)
		r.expr(e.Receiver)
		r.exprs(e.Args)
	case *ast.LogicalOpExpr:
		r.expr(e.Lhs)
		r.expr(e.Rhs)
	case *ast.RelationalOpExpr:
		r.expr(e.Lhs)
		r.expr(e.Rhs)
	case *ast.StringConcatOpExpr:
		r.expr(e.Lhs)
		r.expr(e.Rhs)
	case *ast.ArithmeticOpExpr:
		r.expr(e.Lhs)
		r.expr(e.Rhs)
	case *ast.UnaryMinusOpExpr:
		r.expr(e.Expr)
	case *ast.UnaryNotOpExpr:
		r.expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		r.expr(e.Expr)
	}
}
