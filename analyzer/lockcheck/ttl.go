package lockcheck

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// ttl reports SL1301: a key set with NX and no expiry, then given one by a
// separate EXPIRE. A process that dies (or a connection that drops)
// between the two leaves a lock that never expires.
func (c *checker) ttl() {
	if !c.r.Enabled(rules.LockWithoutTTL) {
		return
	}
	for _, f := range c.fns {
		for _, a := range f.all {
			if a.kind != acquireNoTTL {
				continue
			}
			for _, e := range expiresAfter(f, a) {
				c.r.Report(rules.LockWithoutTTL, a.at, c.ttlFix(f, a, e),
					"%s of lock key %s sets no TTL and %s sets one on a later step: if the process dies in between, the lock never expires; %s",
					commandOf(a), a.key, commandOf(e), ttlAdvice(a.call.Client))
				break
			}
		}
	}
}

// expiresAfter returns the EXPIREs of a's key that follow a on some path
// through f, outside a MULTI/EXEC that holds both (which sends both or
// neither).
func expiresAfter(f *fn, a *event) []*event {
	var out []*event
	for _, e := range f.all {
		if e.kind != expire || e.at == a.at || !e.key.Equal(a.key) {
			continue
		}
		if a.call.Tx != nil && a.call.Tx == e.call.Tx {
			continue
		}
		if f.before(a.at, e.at) {
			out = append(out, e)
		}
	}
	return out
}

// command is the Redis command of an event's call.
func command(e *event) string {
	if e.call.Command == "SETARGS" {
		return "SET"
	}
	return e.call.Command
}

// commandOf names the Redis command of an event, through its helper.
func commandOf(e *event) string {
	cmd := command(e)
	if e.direct() {
		return cmd
	}
	return cmd + " (in " + e.via.Name() + ")"
}

// ttlFix moves the expiry into the acquisition and deletes the EXPIRE
// statement, when that is a mechanical edit: both calls are in this
// function, the acquisition has a constant-zero expiry argument to replace
// (go-redis SetNX) or a one-line options literal to add it to (SetArgs),
// the EXPIRE takes its expiry in the same type and is a statement of its
// own whose result is not used, and its duration is a constant or names
// only values declared before the acquisition.
func (c *checker) ttlFix(f *fn, a, e *event) []analysis.SuggestedFix {
	if !a.direct() || !e.direct() || a.call.Tx != nil || e.call.Tx != nil || a.call.Client != redisapi.GoRedisClient {
		return nil
	}
	d := e.call.Expiry
	if d == nil {
		return nil
	}
	if !c.availableAt(f, d, a.at.Pos()) {
		return nil
	}
	stmt := c.statementOf(f, e.at)
	if stmt == nil {
		return nil
	}
	if guard := onlyStatementOf(f, stmt); guard != nil {
		if c.usedOnlyIn(f, guard.Cond, guard) {
			// ok, _ := SetNX(...).Result(); if ok { EXPIRE }: without the
			// if, ok is declared and not used, and the package no longer
			// compiles; no mechanical edit is right for every such body.
			return nil
		}
		stmt = guard // if ok { EXPIRE } goes as a whole
	}
	from, to, ok := c.lineOf(stmt)
	if !ok {
		return nil
	}
	text, ok := c.source(d)
	if !ok {
		return nil
	}
	var set analysis.TextEdit
	switch opts := a.call.Set; {
	case a.ttl != nil:
		set = analysis.TextEdit{Pos: a.ttl.Pos(), End: a.ttl.End(), NewText: text}
	case opts.Options != nil:
		lit := opts.Options
		if len(lit.Elts) == 0 || c.pass.Fset.Position(lit.Lbrace).Line != c.pass.Fset.Position(lit.Rbrace).Line {
			return nil
		}
		for _, el := range lit.Elts {
			if _, ok := el.(*ast.KeyValueExpr); !ok {
				return nil
			}
		}
		last := lit.Elts[len(lit.Elts)-1]
		set = analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: append([]byte(", "+opts.TTLField+": "), text...)}
	default:
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   "set the TTL in " + a.call.Method + " and drop the separate " + e.call.Command,
		TextEdits: []analysis.TextEdit{set, {Pos: from, End: to}},
	}}
}

// onlyStatementOf returns the if statement whose whole body is stmt, when
// it has no init, no else and a condition without calls, so deleting it
// changes nothing else.
func onlyStatementOf(f *fn, stmt ast.Stmt) *ast.IfStmt {
	var found *ast.IfStmt
	ast.Inspect(f.body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		is, ok := n.(*ast.IfStmt)
		if ok && is.Init == nil && is.Else == nil && len(is.Body.List) == 1 && is.Body.List[0] == stmt && !hasCall(is.Cond) {
			found = is
		}
		return true
	})
	return found
}

// usedOnlyIn reports whether a local variable that cond reads is read
// nowhere in the function but inside guard, so deleting guard would leave
// it unused.
func (c *checker) usedOnlyIn(f *fn, cond ast.Expr, guard ast.Node) bool {
	locals := map[types.Object]bool{}
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && within(v.Pos(), f.body) {
				locals[v] = true
			}
		}
		return true
	})
	if len(locals) == 0 {
		return false
	}
	usedElsewhere := map[types.Object]bool{}
	ast.Inspect(f.body, func(n ast.Node) bool {
		if n == guard {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && locals[c.pass.TypesInfo.Uses[id]] {
			usedElsewhere[c.pass.TypesInfo.Uses[id]] = true
		}
		return true
	})
	return len(usedElsewhere) < len(locals)
}

func hasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		_, isCall := n.(*ast.CallExpr)
		found = found || isCall
		return !found
	})
	return found
}

// availableAt reports whether expression d means the same at p: every
// name it uses is a constant, a package-level object or a variable
// declared before p that is not written again.
func (c *checker) availableAt(f *fn, d ast.Expr, p token.Pos) bool {
	ok := true
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, found := c.pass.TypesInfo.Types[n.Fun]; !found || !tv.IsType() {
				if tv := c.pass.TypesInfo.Types[n]; tv.Value == nil {
					ok = false // a call may have effects or differ when moved
				}
			}
		case *ast.Ident:
			obj := c.pass.TypesInfo.Uses[n]
			switch obj := obj.(type) {
			case *types.Var:
				if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
					return true
				}
				param := within(obj.Pos(), f.typ)
				once := c.x.Origin(n) != ast.Expr(n)
				if obj.Pos() >= p || !(param || once) {
					ok = false
				}
			case nil, *types.Const, *types.TypeName, *types.PkgName, *types.Builtin, *types.Nil:
			default:
				ok = false
			}
		}
		return ok
	})
	return ok
}

// statementOf returns the expression statement that is exactly call, or
// call's reply read for its error or its result (.Err(), .Result()) with
// the results dropped.
func (c *checker) statementOf(f *fn, call *ast.CallExpr) ast.Stmt {
	var found ast.Stmt
	ast.Inspect(f.body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		s, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		x := ast.Unparen(s.X)
		if outer, ok := x.(*ast.CallExpr); ok && outer != call {
			if reply, part, ok := redisapi.ReplyMethod(c.pass.TypesInfo, outer); ok && (part == redisapi.ReplyErr || part == redisapi.ReplyResult) {
				x = ast.Unparen(reply)
			}
		}
		if x == call {
			found = s
		}
		return true
	})
	return found
}

// lineOf returns the range of the whole line(s) holding stmt, newline
// included, when nothing else is written on them.
func (c *checker) lineOf(stmt ast.Stmt) (token.Pos, token.Pos, bool) {
	tf := c.pass.Fset.File(stmt.Pos())
	if tf == nil {
		return 0, 0, false
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return 0, 0, false
	}
	start := tf.LineStart(tf.Line(stmt.Pos()))
	endLine := tf.Line(stmt.End())
	end := token.Pos(tf.Base() + tf.Size())
	if endLine < tf.LineCount() {
		end = tf.LineStart(endLine + 1)
	}
	off := func(p token.Pos) int { return tf.Offset(p) }
	if len(bytes.TrimSpace(src[off(start):off(stmt.Pos())])) != 0 || len(bytes.TrimSpace(src[off(stmt.End()):off(end)])) != 0 {
		return 0, 0, false
	}
	return start, end, true
}

// source is the text of an expression as written.
func (c *checker) source(e ast.Expr) ([]byte, bool) {
	tf := c.pass.Fset.File(e.Pos())
	if tf == nil {
		return nil, false
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return nil, false
	}
	return append([]byte(nil), src[tf.Offset(e.Pos()):tf.Offset(e.End())]...), true
}
