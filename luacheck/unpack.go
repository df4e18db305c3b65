package luacheck

import (
	"strconv"

	"github.com/yuin/gopher-lua/ast"
)

// unpackLimit is where Redis's Lua refuses to unpack: lua_checkstack
// fails at LUAI_MAXCSTACK (8000), and unpack raises "too many results to
// unpack" (on Redis 7.0, 7,999 elements pass and 8,000 do not:
// TestRedisUnpackLimit).
const unpackLimit = "8,000"

// unpackWhole is LUA104: unpack(t), with no range, of a reply that holds a
// whole collection or of a table filled from one in a loop. The script
// works while the collection is small and fails at unpack once it reaches
// unpackLimit elements, keeping whatever it wrote before.
func (in *interp) unpackWhole(e *ast.FuncCallExpr, t value) {
	var what string
	switch {
	case t.kind == kReply && t.src&fromWholeRead != 0:
		what = "the whole reply of " + orSome(t.cmd)
	case t.filledWhole:
		what = "a table filled in a loop over a whole collection"
	default:
		return
	}
	line := e.Line()
	f := Finding{
		Pos:      Position{Line: line, Column: in.c.toks.column(line, "unpack")},
		Rule:     RuleUnpackWhole,
		Message:  sprintf("unpack of %s fails with \"too many results to unpack\" once it holds %s elements, keeping the script's earlier writes (unpack(t, i, j) gives it in slices of a few thousand)", what, unpackLimit),
		Function: in.frame.fnName,
	}
	if id, ok := e.Func.(*ast.IdentExpr); ok {
		if p, ok := in.identPosition(id); ok {
			f.Pos = p
		}
	}
	if id, ok := e.Args[0].(*ast.IdentExpr); ok {
		// Every unpack of one table has one cause: groupCauses names the
		// others in the first finding.
		if v, seq := in.scope.find(id.Value); v != nil {
			f.cause = "table " + id.Value + "@" + strconv.FormatUint(uint64(seq), 10)
		}
	}
	in.c.report(f)
}

// filledWhole marks the local table target names as filled from a whole
// collection when the innermost loop walks one (ipairs(members), or a
// numeric for to #members that is no window, see windowLoop) and the
// table was declared outside that loop: it then holds an item for each
// of the collection's. A table declared inside the loop (a batch made
// anew each pass) does not.
func (in *interp) filledWhole(target ast.Expr) {
	id, ok := target.(*ast.IdentExpr)
	if !ok || len(in.loops) == 0 {
		return
	}
	l := in.loops[len(in.loops)-1]
	if l.over.src&fromWholeRead == 0 || l.over.clamped || l.outside == nil {
		return
	}
	for s := in.scope; s != nil && s != l.outside; s = s.parent {
		for i := range s.vars {
			if s.vars[i].name == id.Value {
				return // declared inside the loop
			}
		}
	}
	v := in.scope.lookup(id.Value)
	if v == nil || v.val.kind != kTable || v.val.filledWhole {
		return
	}
	nv := v.val
	nv.filledWhole = true
	in.setVar(v, nv)
}

// windowLoop: a numeric for from a variable to that variable plus
// something (for j = i, math.min(i + size - 1, #ids)) runs over a slice
// of what the variable walks, however long the collection is.
func windowLoop(s *ast.NumberForStmt) bool {
	id, ok := s.Init.(*ast.IdentExpr)
	return ok && addsTo(s.Limit, id.Value)
}

// addsTo: e is name plus something, possibly less a constant, or the
// smaller of such a sum and something else.
func addsTo(e ast.Expr, name string) bool {
	switch e := e.(type) {
	case *ast.ArithmeticOpExpr:
		switch e.Operator {
		case "+":
			return isIdent(e.Lhs, name) || isIdent(e.Rhs, name) || addsTo(e.Lhs, name)
		case "-":
			_, constant := e.Rhs.(*ast.NumberExpr)
			return constant && addsTo(e.Lhs, name)
		}
	case *ast.FuncCallExpr:
		if exprText(e.Func) == "math.min" {
			for _, a := range e.Args {
				if addsTo(a, name) {
					return true
				}
			}
		}
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.IdentExpr)
	return ok && id.Value == name
}
