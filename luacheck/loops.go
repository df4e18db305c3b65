package luacheck

import (
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// Loops: LUA101 (no bound), LUA102 (bound from caller input or stored
// data), and LUA103's SCAN-until-zero loops. A Redis script blocks the
// whole server while it runs, so a loop's bound is the server's latency.

func (in *interp) loopBody(stmts []ast.Stmt, prelude func()) *loopCtx {
	loop := &loopCtx{outside: in.scope}
	in.loops = append(in.loops, loop)
	work := in.work
	defer func() { loop.work = in.work != work }()
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
	// The bound is read before the condition's own comparison counts as
	// a clamp: "while n > 0" does not bound n, nor does "limit > 0" bound
	// limit in "while limit > 0 and length > 0" (evaluating "and" takes
	// its left side as a condition of its right side).
	bound := in.boundOf(s.Condition, s.Stmts)
	in.expr(s.Condition)
	in.truthTested(s.Condition, false)
	in.cond(s.Condition)
	loop := in.loopBody(s.Stmts, nil)
	if isFalsy(s.Condition) {
		return
	}
	exits := hasExit(s.Stmts)
	if !exits && in.neverChanges(s.Condition, s.Stmts, false) {
		in.reportNoBound(s, "while", s.Condition)
		return
	}
	cond := s.Condition
	if isTruthyConst(cond) {
		cond = nil
	}
	if in.reportPolling(s, "while", cond, s.Stmts) || in.pagedLoop(s, "while", s.Condition, s.Stmts, loop, bound) || in.clockWait(s, "while", cond, s.Stmts) {
		return
	}
	if !exits && !halving(s.Condition, s.Stmts) {
		in.reportBound(s, "while", bound, loop)
	}
}

func (in *interp) repeatStmt(s *ast.RepeatStmt) {
	loop := &loopCtx{outside: in.scope}
	in.loops = append(in.loops, loop)
	work := in.work
	// "until" sees the body's locals, so it is evaluated in the body scope.
	in.branches(func() {
		saved := in.scope
		in.scope = &scope{parent: saved}
		for _, st := range s.Stmts {
			in.stmt(st)
		}
		in.expr(s.Condition)
		in.truthTested(s.Condition, false)
		in.cond(s.Condition)
		in.scope = saved
	}, nil)
	in.loops = in.loops[:len(in.loops)-1]
	loop.work = in.work != work
	if isTruthyConst(s.Condition) {
		return
	}
	if !hasExit(s.Stmts) && (isFalsy(s.Condition) || in.neverChanges(s.Condition, s.Stmts, true)) {
		in.reportNoBound(s, "repeat", s.Condition)
		return
	}
	cond := s.Condition
	if isFalsy(cond) {
		cond = nil
	}
	if in.reportPolling(s, "repeat", cond, s.Stmts) || in.pagedLoop(s, "repeat", s.Condition, s.Stmts, loop, in.boundOf(s.Condition, s.Stmts)) {
		return
	}
	in.clockWait(s, "repeat", cond, s.Stmts)
}

func (in *interp) numberFor(s *ast.NumberForStmt) {
	init := in.expr(s.Init)
	limit := in.expr(s.Limit)
	in.expr(s.Step)
	if countsDown(s.Step) {
		// "for i = tonumber(ARGV[1]), 1, -1": the start sets the passes.
		limit = init
	}
	loop := in.loopBody(s.Stmts, func() {
		in.scope.declare(s.Name, value{kind: kNumber, src: init.src | limit.src})
		if limit.src&fromWholeRead != 0 && !windowLoop(s) {
			// "for i = 1, #members": the loop runs over the whole
			// collection as ipairs(members) does, so a table it fills
			// with members[i] grows with the data (filled); "for j =
			// i, math.min(i + 999, #members)" runs over a slice of it.
			in.loops[len(in.loops)-1].over = limit
		}
	})
	eachPass := fromArgvLen
	if limit.src == 0 || !in.argvEachPass(s, &eachPass) {
		eachPass = 0
	}
	if !hasExit(s.Stmts) {
		if eachPass != 0 {
			// Every pass reads ARGV[i + c] (or KEYS) where a missing
			// entry raises an error: the loop cannot outrun the
			// request's arguments, whatever number bounds it (BullMQ's
			// removeOrphanedJobs reads as many suffixes as a count in
			// ARGV says).
			limit = value{kind: kNumber, src: eachPass}
		}
		in.reportBound(s, "for", limit, loop)
	}
	if eachPass != 0 {
		in.boundByRequest(s, eachPass)
	}
}

// boundByRequest marks the local that bounds loop s, whose every pass
// raises past the request's arguments, as a count the request bounds:
// once the loop has run to its end without raising, the number is at
// most the number of arguments, and a later loop to it costs what the
// request asks for (Seata's lock script checks KEYS[1..n] with HGET, then
// writes the free ones in a second loop to n).
func (in *interp) boundByRequest(s *ast.NumberForStmt, src source) {
	bound := s.Limit
	if countsDown(s.Step) {
		bound = s.Init
	}
	id, ok := bound.(*ast.IdentExpr)
	if !ok {
		return
	}
	v := in.scope.lookup(id.Value)
	if v == nil {
		return
	}
	nv := v.val
	nv.src = src
	in.setVar(v, nv)
}

// countsDown: the step is a negative number literal (-1), so the loop
// runs from its start down to its limit, and the start is its bound.
func countsDown(step ast.Expr) bool {
	if n, ok := step.(*ast.NumberExpr); ok {
		f, err := strconv.ParseFloat(n.Value, 64)
		return err == nil && f < 0
	}
	m, ok := step.(*ast.UnaryMinusOpExpr)
	if !ok {
		return false
	}
	n, ok := m.Expr.(*ast.NumberExpr)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	return err == nil && f > 0
}

// argvEachPass reports whether every pass of a numeric for loop reads
// ARGV or KEYS at an index that moves with the loop variable ("ARGV[i]",
// "ARGV[1 + i]", "ARGV[base + i]" with base unchanged by the body), or
// takes the next KEYS or ARGV entry through a getter (cursorEntry), and
// uses that entry, directly or through a local of the body holding it,
// where nil raises an error: as an operand of "..", or of arithmetic, or
// as an argument of redis.call, in a statement of the body itself (not
// inside a branch, a nested loop or a short-circuit operand), so that a
// pass past the last argument fails the script. The real server's
// wording is "attempt to concatenate a nil value" or "Lua redis lib
// command arguments must be strings or integers" (TestRedisArgvEachPass).
// The passes are then at most the number of arguments the request
// carries, as for a loop to #ARGV (or #KEYS: table is set to fromKeysLen
// when the entry is a key).
func (in *interp) argvEachPass(s *ast.NumberForStmt, table *source) bool {
	if s.Step != nil {
		n, ok := s.Step.(*ast.NumberExpr)
		if !ok {
			return false
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err != nil || f == 0 {
			return false
		}
	}
	written := writtenNames(s.Stmts, true)
	if written[s.Name] || in.argvWritten(s.Stmts) {
		return false
	}
	moves := func(idx ast.Expr) bool {
		isVar := func(e ast.Expr) bool {
			id, ok := e.(*ast.IdentExpr)
			return ok && id.Value == s.Name
		}
		var invariant func(e ast.Expr, depth int) bool
		invariant = func(e ast.Expr, depth int) bool {
			switch e := e.(type) {
			case *ast.NumberExpr:
				return true
			case *ast.IdentExpr:
				return e.Value != s.Name && !written[e.Value]
			case *ast.ArithmeticOpExpr:
				return depth < 8 && invariant(e.Lhs, depth+1) && invariant(e.Rhs, depth+1)
			}
			return false
		}
		if isVar(idx) {
			return true
		}
		a, ok := idx.(*ast.ArithmeticOpExpr)
		if !ok {
			return false
		}
		switch a.Operator {
		case "+":
			return (isVar(a.Lhs) && invariant(a.Rhs, 0)) || (invariant(a.Lhs, 0) && isVar(a.Rhs))
		case "-":
			return isVar(a.Lhs) && invariant(a.Rhs, 0)
		}
		return false
	}
	// copies are the body's locals that hold an entry as is ("local
	// eventId = ARGV[1 + i]", "local key = getKey()"), declared by a
	// statement of the body itself and never assigned: a later use of
	// one where nil raises uses the entry.
	copies := map[string]bool{}
	assigned := writtenNames(s.Stmts, false)
	entry := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.IdentExpr:
			return copies[e.Value]
		case *ast.FuncCallExpr:
			return in.cursorEntry(e, s.Stmts, written)
		}
		g, ok := e.(*ast.AttrGetExpr)
		if !ok {
			return false
		}
		keys := in.isKeysTable(g.Object)
		if !keys && !in.isArgvTable(g.Object) {
			return false
		}
		id := g.Object.(*ast.IdentExpr)
		if written[id.Value] || !moves(g.Key) {
			return false
		}
		if keys {
			*table = fromKeysLen
		}
		return true
	}
	// strict walks the expressions evaluated whenever e is, and reports
	// an ARGV entry used where nil raises.
	var strict func(e ast.Expr, depth int) bool
	strict = func(e ast.Expr, depth int) bool {
		if e == nil || depth > 64 {
			return false
		}
		switch e := e.(type) {
		case *ast.StringConcatOpExpr:
			return entry(e.Lhs) || entry(e.Rhs) || strict(e.Lhs, depth+1) || strict(e.Rhs, depth+1)
		case *ast.ArithmeticOpExpr:
			return entry(e.Lhs) || entry(e.Rhs) || strict(e.Lhs, depth+1) || strict(e.Rhs, depth+1)
		case *ast.LogicalOpExpr:
			return strict(e.Lhs, depth+1) // the right side may not run
		case *ast.RelationalOpExpr:
			return strict(e.Lhs, depth+1) || strict(e.Rhs, depth+1)
		case *ast.FuncCallExpr:
			if strict(e.Func, depth+1) || strict(e.Receiver, depth+1) {
				return true
			}
			// redis.call raises on a nil argument ("Lua redis lib
			// command arguments must be strings or integers"); pcall
			// returns the error instead.
			raises := in.isRedisCall(e)
			for _, a := range e.Args {
				if raises && entry(a) || strict(a, depth+1) {
					return true
				}
			}
		case *ast.AttrGetExpr:
			return strict(e.Object, depth+1) || strict(e.Key, depth+1)
		case *ast.UnaryMinusOpExpr:
			return entry(e.Expr) || strict(e.Expr, depth+1)
		case *ast.UnaryNotOpExpr:
			return strict(e.Expr, depth+1)
		case *ast.UnaryLenOpExpr:
			return strict(e.Expr, depth+1)
		}
		return false
	}
	// number is tonumber(e) of an entry: nil when the entry is missing.
	number := func(e ast.Expr) bool {
		call, ok := e.(*ast.FuncCallExpr)
		return ok && call.Receiver == nil && len(call.Args) == 1 && in.globalName(call.Func) == "tonumber" && entry(call.Args[0])
	}
	for _, st := range s.Stmts {
		var es []ast.Expr
		switch st := st.(type) {
		case *ast.LocalAssignStmt:
			es = st.Exprs
			for i, name := range st.Names {
				copies[name] = len(st.Names) == len(st.Exprs) && !assigned[name] && (entry(st.Exprs[i]) || number(st.Exprs[i]))
			}
		case *ast.AssignStmt:
			es = st.Rhs
		case *ast.FuncCallStmt:
			es = []ast.Expr{st.Expr}
		case *ast.NumberForStmt:
			// A numeric for raises on a nil start, limit or step ("'for'
			// limit must be a number"): a workflow engine's inner loop
			// to tonumber(nextArg()) events.
			for _, e := range []ast.Expr{st.Init, st.Limit, st.Step} {
				if e != nil && (entry(e) || number(e) || strict(e, 0)) {
					return true
				}
			}
		}
		for _, e := range es {
			if strict(e, 0) {
				return true
			}
		}
	}
	return false
}

// isArgvTable: e names the request's ARGV table (or a Functions
// callback's args parameter).
func (in *interp) isArgvTable(e ast.Expr) bool { return in.requestTable(e, kArgv, "ARGV") }

// isKeysTable: e names the request's KEYS table (or a Functions
// callback's keys parameter).
func (in *interp) isKeysTable(e ast.Expr) bool { return in.requestTable(e, kKeys, "KEYS") }

// requestTable: e is a local holding the request's table of kind k, or
// the global of that name where scripts have one (not in Functions).
func (in *interp) requestTable(e ast.Expr, k kind, global string) bool {
	id, ok := e.(*ast.IdentExpr)
	if !ok {
		return false
	}
	if v := in.scope.lookup(id.Value); v != nil {
		return v.val.kind == k
	}
	return id.Value == global && !in.c.opts.Function
}

// isRedisCall reports whether call is redis.call, the sandbox's own.
func (in *interp) isRedisCall(call *ast.FuncCallExpr) bool {
	return call.Receiver == nil && in.globalName(call.Func) == "redis.call"
}

// globalName is "name" or "lib.member" for a global function or a
// library's member, "" for anything else (a local shadowing the name
// included).
func (in *interp) globalName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.IdentExpr:
		if in.scope.lookup(f.Value) != nil {
			return ""
		}
		return f.Value
	case *ast.AttrGetExpr:
		obj, ok1 := f.Object.(*ast.IdentExpr)
		key, ok2 := f.Key.(*ast.StringExpr)
		if !ok1 || !ok2 || in.scope.lookup(obj.Value) != nil {
			return ""
		}
		return obj.Value + "." + key.Value
	}
	return ""
}

// cursorEntry reports whether call calls a function of the script that
// returns the next KEYS or ARGV entry at a cursor it advances on every
// call, as
//
//	local getArgv = function()
//	  local argv = ARGV[argvIdx]
//	  argvIdx = argvIdx + 1
//	  return argv
//	end
//
// does (or "argvIdx = argvIdx + 1; return ARGV[argvIdx]"): each call takes
// another entry, as ARGV[1 + i] does on each pass of a loop. A loop body
// (body, whose assigned names are written) that moves the cursor itself,
// or writes into the table, could take one entry again.
func (in *interp) cursorEntry(call *ast.FuncCallExpr, body []ast.Stmt, written map[string]bool) bool {
	id, ok := call.Func.(*ast.IdentExpr)
	if !ok || call.Receiver != nil || len(call.Args) != 0 {
		return false
	}
	b := in.scope.lookup(id.Value)
	if b == nil || b.val.kind != kFunc || b.val.fn == nil || b.val.fn.method {
		return false
	}
	def := b.val.fn.def
	if len(def.ParList.Names) != 0 || def.ParList.HasVargs || len(def.Stmts) < 2 {
		return false
	}
	// at is T[c] with T the KEYS or ARGV table and c a name.
	at := func(e ast.Expr) (table, cursor string, ok bool) {
		g, ok := e.(*ast.AttrGetExpr)
		if !ok {
			return "", "", false
		}
		t, tok := g.Object.(*ast.IdentExpr)
		c, cok := g.Key.(*ast.IdentExpr)
		if !tok || !cok || (t.Value != "KEYS" && t.Value != "ARGV") || in.c.opts.Function || in.scope.lookup(t.Value) != nil {
			return "", "", false
		}
		return t.Value, c.Value, true
	}
	var table, cursor, copied string
	advanced := false
	for i, st := range def.Stmts {
		last := i == len(def.Stmts)-1
		switch st := st.(type) {
		case *ast.LocalAssignStmt:
			if last || copied != "" || len(st.Names) != 1 || len(st.Exprs) != 1 {
				return false
			}
			if table, cursor, ok = at(st.Exprs[0]); !ok || advanced || st.Names[0] == cursor {
				return false
			}
			copied = st.Names[0]
		case *ast.AssignStmt:
			if last || advanced || len(st.Lhs) != 1 || len(st.Rhs) != 1 {
				return false
			}
			c, ok := st.Lhs[0].(*ast.IdentExpr)
			if !ok || !advances(c.Value, st.Rhs[0]) || (cursor != "" && c.Value != cursor) {
				return false
			}
			cursor, advanced = c.Value, true
		case *ast.ReturnStmt:
			if !last || !advanced || len(st.Exprs) != 1 {
				return false
			}
			if r, ok := st.Exprs[0].(*ast.IdentExpr); ok && copied != "" {
				if r.Value != copied {
					return false
				}
			} else if t, c, ok := at(st.Exprs[0]); !ok || copied != "" || c != cursor {
				return false
			} else {
				table = t
			}
		default:
			return false
		}
	}
	isTable := func(e ast.Expr) bool {
		id, ok := e.(*ast.IdentExpr)
		return ok && id.Value == table
	}
	return table != "" && !written[cursor] && !writesInto(body, isTable)
}

// advances reports whether e is "name + n" with n a positive number.
func advances(name string, e ast.Expr) bool {
	a, ok := e.(*ast.ArithmeticOpExpr)
	if !ok || a.Operator != "+" {
		return false
	}
	l, lok := a.Lhs.(*ast.IdentExpr)
	n, nok := a.Rhs.(*ast.NumberExpr)
	if !lok || !nok || l.Value != name {
		return false
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	return err == nil && f > 0
}

// argvWritten reports whether stmts assign into the ARGV table, which
// could make an entry past the request's last one exist.
func (in *interp) argvWritten(stmts []ast.Stmt) bool { return writesInto(stmts, in.isArgvTable) }

// writesInto reports whether stmts assign into a field of a table that
// isTable accepts (ARGV[n] = x).
func writesInto(stmts []ast.Stmt, isTable func(ast.Expr) bool) bool {
	found := false
	inspect(stmtNodes(stmts), func(n any) bool {
		if a, ok := n.(*ast.AssignStmt); ok {
			for _, l := range a.Lhs {
				if g, ok := l.(*ast.AttrGetExpr); ok && isTable(g.Object) {
					found = true
				}
			}
		}
		return !found
	})
	return found
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
			elem = value{kind: kString, key: in.holes.next("KEYS", iterated.label()+"[i]"), hasKey: true}
			idx = value{kind: kNumber, src: fromKeysLen}
		case kArgv:
			elem = value{kind: kString, key: in.holes.next("ARGV", iterated.label()+"[i]"), hasKey: true, src: fromArgv}
			idx = value{kind: kNumber, src: fromArgvLen}
		default:
			// One item of a whole collection is no longer the collection.
			elem = value{kind: kUnknown, src: iterated.src &^ fromWholeRead, cmd: iterated.cmd, at: iterated.at,
				listed: iterated.cmd == "KEYS" && iterated.kind == kReply || iterated.cmd == "SCAN" && iterated.kind == kUnknown}
			idx = value{kind: kNumber, src: iterated.src &^ fromWholeRead}
		}
	} else {
		// An iterator a helper builds from the size of a whole read
		// ("for from, to in batches(#active, 7000)") runs as many passes
		// as the collection has batches.
		iterated = in.iteratorOverWhole(s.Exprs)
		mark := in.mark()
		in.exprList(s.Exprs)
		in.release(mark)
	}
	loop := in.loopBody(s.Stmts, func() {
		if ipairs {
			in.loops[len(in.loops)-1].over = iterated
		}
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
	if !ipairs {
		if iterated.src&fromWholeRead != 0 && !hasExit(s.Stmts) {
			in.reportBound(s, "for", iterated, loop)
		}
		return
	}
	if hasExit(s.Stmts) && (iterated.src&fromWholeRead == 0 || in.exitsCapped(s.Stmts, s.Names[0])) {
		// Over a whole collection, a break that waits for something to
		// be found or counted (BullMQ's "deletedCount >= limit" with
		// limit 0 meaning all) still lets the data decide: only a cap on
		// the passes bounds it.
		return
	}
	// Iterating over a page of a reply is bounded by the read; over a
	// whole collection, caller input or decoded data, by nobody.
	var bound value
	switch {
	case iterated.kind == kKeys:
		bound = value{src: fromKeysLen}
	case iterated.kind == kArgv:
		bound = value{src: fromArgvLen}
	case requestData(iterated):
		// A list the caller packed into ARGV (cjson.decode(ARGV[1])) is
		// the request's own arguments, like ipairs(ARGV).
		bound = value{src: fromArgsList}
	case iterated.src&(fromDecoded|fromWholeRead|fromCallerRange) != 0:
		bound = value{src: iterated.src & (fromDecoded | fromWholeRead | fromCallerRange), cmd: iterated.cmd}
	}
	if !loop.work && bound.src&^(fromDecoded|fromWholeRead|fromReply|fromCallerRange) == 0 {
		// Lua work per item of a value already read: the read is the cost.
		return
	}
	in.reportBound(s, "for", bound, loop)
}

// iteratorOverWhole returns the value a generic for's iterator call is
// fed from when one of its arguments is a whole read or its length (a
// local read as is, or "#name"): looking names up evaluates nothing.
func (in *interp) iteratorOverWhole(exprs []ast.Expr) value {
	if len(exprs) != 1 {
		return value{}
	}
	call, ok := exprs[0].(*ast.FuncCallExpr)
	if !ok || call.Receiver != nil {
		return value{}
	}
	for _, a := range call.Args {
		if l, ok := a.(*ast.UnaryLenOpExpr); ok {
			a = l.Expr
		}
		id, ok := a.(*ast.IdentExpr)
		if !ok {
			continue
		}
		if v := in.scope.lookup(id.Value); v != nil && v.val.src&fromWholeRead != 0 {
			return value{src: fromWholeRead, cmd: v.val.cmd}
		}
	}
	return value{}
}

// requestData: a table decoded from the request's arguments (ARGV, or a
// KEYS element used as a payload) alone, not from stored data.
func requestData(v value) bool {
	return v.src&fromDecoded != 0 && v.src&(fromArgv|fromKeysText) != 0 && v.src&(fromReply|fromWholeRead) == 0
}

// boundOf is the value a while condition compares against, when it is an
// ordering: "while i <= n do".
func (in *interp) boundOf(cond ast.Expr, body []ast.Stmt) value {
	if l, ok := cond.(*ast.LogicalOpExpr); ok && l.Operator == "and" {
		// The loop runs while both hold, so either side can end it: a
		// side that caps the passes bounds the loop; otherwise the first
		// side with a bound from the caller or the data is the bound
		// (exq's "while limit > 0 and length > 0" pops at most limit).
		if in.hasCap(l.Lhs, body) || in.hasCap(l.Rhs, body) {
			return value{}
		}
		if b := in.boundOf(l.Lhs, body); b.src != 0 {
			return b
		}
		return in.boundOf(l.Rhs, body)
	}
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

func (in *interp) reportBound(s ast.Stmt, keyword string, bound value, loop *loopCtx) {
	mask := fromArgv | fromReply | fromDecoded | fromWholeRead | fromCallerRange
	if in.c.opts.ArgLoops {
		mask |= fromKeysLen | fromArgvLen | fromArgsList
	}
	src := bound.src & mask
	if src == 0 || bound.clamped {
		return
	}
	if src&fromWholeRead != 0 {
		if !loop.work {
			// A pass that runs no command costs a little Lua per item of
			// a reply already read: the read (LUA103) is the cost.
			return
		}
		what := "a reply"
		if bound.cmd != "" {
			what = "a " + bound.cmd + " reply"
		}
		in.reportLoop(s, keyword, RuleInputBound, "%s loop is bounded by the size of %s that holds the whole collection: the data decides how long the script blocks the server (read a page with LIMIT/COUNT or break at a fixed maximum)", keyword, what)
		return
	}
	if src&fromCallerRange != 0 && src&(fromArgv|fromDecoded) == 0 {
		if !loop.work {
			return // Lua work per item of a reply already read
		}
		what := "a reply"
		if bound.cmd != "" {
			what = "a " + bound.cmd + " reply"
		}
		in.reportLoop(s, keyword, RuleInputBound, "%s loop is bounded by the size of %s whose range stop is a number the caller passes in ARGV, as is or less a constant: the caller decides how long the script blocks the server, up to the whole collection with a stop of -1 (replace a negative stop, or one past start plus a fixed page size, with start plus that size: math.min lets -1 through)", keyword, what)
		return
	}
	in.reportLoop(s, keyword, RuleInputBound, "%s loop is bounded by %s with no clamp: the caller or the data decides how long the script blocks the server (clamp it with math.min or break at a fixed maximum)", keyword, src.describe())
}

// halving reports whether a while loop narrows a range by halving it
// ("while lo <= hi" with lo and hi set only from mid = (lo + hi) / 2, or
// "while n > 1" with n = n / 2): it ends within about 64 passes whatever
// the input, as a binary search does.
func halving(cond ast.Expr, body []ast.Stmt) bool {
	r, ok := cond.(*ast.RelationalOpExpr)
	if !ok {
		return false
	}
	switch r.Operator {
	case "<", "<=", ">", ">=":
	default:
		return false
	}
	var vars []string
	for _, side := range []ast.Expr{r.Lhs, r.Rhs} {
		if id, ok := side.(*ast.IdentExpr); ok {
			vars = append(vars, id.Value)
		}
	}
	if len(vars) == 0 {
		return false
	}
	defs := assignments(body)
	// mids are the body's locals computed by halving.
	mids := map[string]bool{}
	for name, rhs := range defs {
		all := len(rhs) > 0
		for _, e := range rhs {
			all = all && halves(e)
		}
		if all {
			mids[name] = true
		}
	}
	changed := false
	for _, v := range vars {
		for _, e := range defs[v] {
			if !halves(e) && !fromMid(e, mids) {
				return false
			}
			changed = true
		}
	}
	return changed
}

// assignments maps each name assigned in stmts (nested functions
// excluded) to the expressions assigned to it.
func assignments(stmts []ast.Stmt) map[string][]ast.Expr {
	out := map[string][]ast.Expr{}
	inspect(stmtNodes(stmts), func(n any) bool {
		var names []string
		var exprs []ast.Expr
		switch n := n.(type) {
		case *ast.FunctionExpr:
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				id, _ := l.(*ast.IdentExpr)
				if id == nil {
					names = append(names, "")
					continue
				}
				names = append(names, id.Value)
			}
			exprs = n.Rhs
		case *ast.LocalAssignStmt:
			names, exprs = n.Names, n.Exprs
		}
		for i, name := range names {
			if name == "" {
				continue
			}
			var e ast.Expr = &ast.NilExpr{}
			if i < len(exprs) {
				e = exprs[i]
			}
			out[name] = append(out[name], e)
		}
		return true
	})
	return out
}

// halves: e divides by two somewhere ("(lo + hi) / 2", "math.floor(n / 2)",
// "bit.rshift(n, 1)").
func halves(e ast.Expr) bool {
	found := false
	inspect([]any{e}, func(n any) bool {
		switch n := n.(type) {
		case *ast.ArithmeticOpExpr:
			if num, ok := n.Rhs.(*ast.NumberExpr); ok && ((n.Operator == "/" && num.Value == "2") || (n.Operator == "*" && num.Value == "0.5")) {
				found = true
			}
		case *ast.FuncCallExpr:
			if g, ok := n.Func.(*ast.AttrGetExpr); ok && len(n.Args) == 2 {
				obj, _ := g.Object.(*ast.IdentExpr)
				key, _ := g.Key.(*ast.StringExpr)
				num, _ := n.Args[1].(*ast.NumberExpr)
				if obj != nil && key != nil && num != nil && obj.Value == "bit" && key.Value == "rshift" && num.Value == "1" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// fromMid: e is mid, mid + k or mid - k for a halving local mid.
func fromMid(e ast.Expr, mids map[string]bool) bool {
	if a, ok := e.(*ast.ArithmeticOpExpr); ok && (a.Operator == "+" || a.Operator == "-") {
		if _, ok := a.Rhs.(*ast.NumberExpr); ok {
			e = a.Lhs
		}
	}
	id, ok := e.(*ast.IdentExpr)
	return ok && mids[id.Value]
}

func (in *interp) reportNoBound(s ast.Stmt, keyword string, cond ast.Expr) {
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
	in.reportLoop(s, keyword, RuleNoBound, "%s loop never ends: %s and the body has no break, return or error (the server stays BUSY until SCRIPT KILL or SHUTDOWN NOSAVE)", keyword, why)
}

// reportPolling is LUA101 for loops whose every exit depends only on
// state the loop does not change (see pollingLoop).
func (in *interp) reportPolling(s ast.Stmt, keyword string, cond ast.Expr, body []ast.Stmt) bool {
	polling, reads := in.pollingLoop(cond, body)
	if !polling {
		return false
	}
	what := "values the loop never changes"
	if len(reads) > 0 {
		what = strings.Join(reads, ", ") + ", which nothing changes while the script runs (other clients get BUSY)"
	}
	in.reportLoop(s, keyword, RuleNoBound, "%s loop can never end once it starts: its exits depend only on %s, so if it does not end on the first pass it spins until SCRIPT KILL or SHUTDOWN NOSAVE", keyword, what)
	return true
}

// pagedLoop is LUA103 for loops that page through a collection until the
// data runs out: SCAN/SSCAN/HSCAN/ZSCAN until the cursor is "0", a range
// read with LIMIT (or a moving start) until a page comes back empty, or a
// pop (LPOP, RPOPLPUSH, ZPOPMIN, ...) until nothing comes back, with no
// fixed cap on the pages or items that also ends them.
func (in *interp) pagedLoop(s ast.Stmt, keyword string, cond ast.Expr, body []ast.Stmt, loop *loopCtx, bound value) bool {
	if loop.paged == "" {
		return false
	}
	if cond != nil && in.hasCap(cond, body) {
		return false
	}
	for _, e := range collectExits(body) {
		if len(e.guards) == 0 {
			return false
		}
		for _, g := range e.guards {
			if in.hasCap(g, body) {
				return false
			}
		}
	}
	if popCommands[loop.paged] {
		if cond != nil && bound.src != 0 && !bound.clamped {
			// "while i < LLEN", "while limit > 0" with limit from ARGV:
			// the compared bound is the finding (LUA102), not the pops.
			// A while loop's bound is read before its condition counts as
			// a clamp of the compared value.
			return false
		}
		in.reportLoop(s, keyword, RuleWholeRead, "%s loop pops with %s until the collection is empty: it moves the whole collection in one script call, however large (stop after a fixed number of items and leave the rest for the next call)", keyword, loop.paged)
		return true
	}
	if scanCommands[loop.paged] {
		what := "the whole collection"
		if loop.paged == "SCAN" {
			what = "the whole keyspace"
		}
		in.reportLoop(s, keyword, RuleWholeRead, "%s loop runs until the cursor is 0: it reads %s in one script call, however large (stop after a fixed number of iterations and return the cursor)", loop.paged, what)
	} else {
		in.reportLoop(s, keyword, RuleWholeRead, "%s loop pages with %s until the data runs out: it reads the whole range in one script call, however large (stop after a fixed number of pages and return where it stopped)", keyword, loop.paged)
	}
	return true
}

// exitsCapped reports whether some exit of the loop body leaves on every
// path or under a cap on the passes (hasCap; index is a for loop's own
// index).
func (in *interp) exitsCapped(body []ast.Stmt, index string) bool {
	for _, e := range collectExits(body) {
		if len(e.guards) == 0 {
			return true
		}
		for _, g := range e.guards {
			if in.hasCap(g, body, index) {
				return true
			}
		}
	}
	return false
}

// hasCap reports whether e bounds the number of passes: it compares a
// counter the body advances on every pass ("pages = pages + 1" outside any
// if) with a fixed number (a literal, or a local the loop does not change
// and that does not come from stored data). A count that grows only when
// something is found ("del_count >= max") does not bound a search that
// finds nothing.
func (in *interp) hasCap(e ast.Expr, body []ast.Stmt, index ...string) bool {
	written := writtenNames(body, true)
	counters := passCounters(body)
	for _, name := range index {
		// A for loop's own index advances on every pass.
		counters[name] = true
	}
	fixed := func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.NumberExpr:
			return true
		case *ast.IdentExpr:
			// "index < total" with total = ZCARD pages to the end of
			// the data: no cap.
			v := in.scope.lookup(x.Value)
			return v != nil && !written[x.Value] && !in.writtenInClosure[x.Value] &&
				v.val.src&(fromReply|fromWholeRead|fromDecoded) == 0
		}
		return false
	}
	counter := func(x ast.Expr) bool {
		id, ok := x.(*ast.IdentExpr)
		return ok && counters[id.Value]
	}
	capped := false
	inspect([]any{e}, func(n any) bool {
		if r, ok := n.(*ast.RelationalOpExpr); ok {
			switch r.Operator {
			case "<", "<=", ">", ">=", "==", "~=":
				if (counter(r.Lhs) && fixed(r.Rhs)) || (counter(r.Rhs) && fixed(r.Lhs)) {
					capped = true
				}
			}
		}
		_, isFunc := n.(*ast.FunctionExpr)
		return !capped && !isFunc
	})
	return capped
}

// passCounters are the names the body advances on every pass: "n = n + k"
// as a statement of the body itself, not inside an if or a nested loop.
func passCounters(body []ast.Stmt) map[string]bool {
	out := map[string]bool{}
	for _, s := range body {
		a, ok := s.(*ast.AssignStmt)
		if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
			continue
		}
		id, ok := a.Lhs[0].(*ast.IdentExpr)
		if !ok {
			continue
		}
		if ar, ok := a.Rhs[0].(*ast.ArithmeticOpExpr); ok && ar.Operator == "+" {
			if l, ok := ar.Lhs.(*ast.IdentExpr); ok && l.Value == id.Value {
				out[id.Value] = true
			}
		}
	}
	return out
}

// scanCommands are the cursor reads.
var scanCommands = map[string]bool{"SCAN": true, "SSCAN": true, "HSCAN": true, "ZSCAN": true}

// pagedRead names the command when c reads one page of a collection: a
// SCAN family call, a range read with LIMIT or COUNT, or an index range
// with a computed end. In a loop the start usually moves; when it does
// not, the loop must be removing what it read to get anywhere. (The body
// is walked once, so a cursor that starts at "0" looks constant here.)
func pagedRead(c commandCall) string {
	known := func(i int) bool { return i < len(c.argv) && c.argv[i].Known }
	switch c.cmd.Name {
	case "SCAN", "SSCAN", "HSCAN", "ZSCAN":
		return c.cmd.Name
	case "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGEBYLEX", "ZRANGE":
		if limit, _ := c.hasArg("LIMIT"); limit {
			return c.cmd.Name + " LIMIT"
		}
		if c.cmd.Name == "ZRANGE" && (!known(2) || !known(3)) {
			return c.cmd.Name
		}
	case "ZREVRANGE", "LRANGE":
		if !known(2) || !known(3) {
			return c.cmd.Name
		}
	case "XRANGE", "XREVRANGE":
		if count, _ := c.hasArg("COUNT"); count {
			return c.cmd.Name + " COUNT"
		}
	case "LPOP", "RPOP", "SPOP", "ZPOPMIN", "ZPOPMAX", "RPOPLPUSH", "LMOVE", "LMPOP", "ZMPOP":
		// A loop that pops until nothing comes back drains the collection.
		return c.cmd.Name
	}
	return ""
}

// popCommands take items out of a collection: a loop over them until the
// reply is empty moves the whole collection.
var popCommands = map[string]bool{
	"LPOP": true, "RPOP": true, "SPOP": true, "ZPOPMIN": true, "ZPOPMAX": true,
	"RPOPLPUSH": true, "LMOVE": true, "LMPOP": true, "ZMPOP": true,
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
	inspect([]any{e}, func(n any) bool {
		if id, ok := n.(*ast.IdentExpr); ok && !seen[id.Value] {
			seen[id.Value] = true
			out = append(out, id.Value)
		}
		return true
	})
	return out
}

// writtenNames are the names assigned anywhere in stmts, nested functions
// included; with locals, also names declared there (a repeat condition
// sees the body's fresh locals).
func writtenNames(stmts []ast.Stmt, locals bool) map[string]bool {
	out := map[string]bool{}
	inspect(stmtNodes(stmts), func(n any) bool {
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
		return true
	})
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
