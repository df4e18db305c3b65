package luacheck

import (
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/slotlint/slotlint/slot"
)

// The interpreter walks the script once in source order, tracking what each
// local holds (see value). Local functions are analysed at each call site
// with the arguments bound, so a helper called with KEYS[1] sees KEYS[1];
// functions never called are analysed once at the end with unknown
// parameters. Work is bounded by maxInline and a step budget.
const (
	maxInline     = 6
	budgetPerNode = 40
)

type variable struct {
	val value
	// guarded: the variable was tested for nil/false (if v then, v and,
	// v == nil) so later arithmetic on it is assumed safe.
	guarded bool
	// clamped: compared with a constant in a condition.
	clamped bool
	// positive: above zero on this path, the else branch of a test that
	// it is at most zero (if n <= 0 then ... elseif n <= LLEN k ...).
	positive bool
	// validates is the variable this one was computed from by a function
	// that yields nil for bad input (local d = string.match(raw, p)):
	// testing d guards raw too.
	validates *variable
	// def is the expression the local was declared with, when it is the
	// only value of its declaration and nothing has assigned the local
	// since: the clock-wait rule reads a deadline's parts from it.
	def ast.Expr
}

type scope struct {
	parent *scope
	vars   []namedVar // few per scope: a slice beats a map
	// seen is the declaration counter when a function body's scope was
	// made: from there outwards only locals declared before the function
	// are visible (a local declared after it is a global inside it).
	seen    uint32
	limited bool
	// decls counts declarations, shared by a chain of scopes (found
	// through the parent when nil).
	decls *declarations
}

// declarations numbers the declarations of a chain of scopes and holds
// their variables, allocated a block at a time: one allocation per
// declared local was 6% of the bytes and 4% of the allocations of a run
// over the real-world set.
type declarations struct {
	n     uint32
	free  []variable
	block int
}

// newVariable returns a fresh variable holding v.
func (d *declarations) newVariable(v value) *variable {
	if len(d.free) == 0 {
		// Small scripts declare a few locals, BullMQ's commands with
		// their helpers thousands.
		d.block = min(max(2*d.block, 4), 32)
		d.free = make([]variable, d.block)
	}
	nv := &d.free[0]
	d.free = d.free[1:]
	nv.val = v
	return nv
}

type namedVar struct {
	name string
	seq  uint32
	v    *variable
}

func (s *scope) lookup(name string) *variable {
	v, _ := s.find(name)
	return v
}

// find is lookup with the local's declaration number: the same for every
// use of one local in one analysis.
func (s *scope) find(name string) (*variable, uint32) {
	limit := ^uint32(0)
	for ; s != nil; s = s.parent {
		for i := len(s.vars) - 1; i >= 0; i-- {
			if s.vars[i].name == name && s.vars[i].seq <= limit {
				return s.vars[i].v, s.vars[i].seq
			}
		}
		if s.limited {
			limit = min(limit, s.seen)
		}
	}
	return nil, 0
}

func (s *scope) declare(name string, v value) *variable {
	d := s.counter()
	nv := d.newVariable(v)
	d.n++
	s.vars = append(s.vars, namedVar{name, d.n, nv})
	return nv
}

// counter is the declarations of s's chain.
func (s *scope) counter() *declarations {
	if s.decls == nil {
		p := s.parent
		for p.decls == nil {
			p = p.parent
		}
		s.decls = p.decls
	}
	return s.decls
}

// child is a new block scope inside s.
func (s *scope) child() *scope { return &scope{parent: s, decls: s.counter()} }

// frame is one function activation being analysed.
type frame struct {
	vararg bool
	// implicitArg: a vararg function, where Lua 5.1 declares "arg".
	implicitArg bool
	returns     []value
	// Function-level context for Functions callbacks.
	fnName     string
	noWrites   bool
	allowCross bool
	inline     int
}

// writeLog records the values variables had before a branch or loop body
// changed them, so the paths can be joined afterwards.
type writeLog struct {
	entries []logEntry
}

type logEntry struct {
	v   *variable
	old value
}

func (l *writeLog) has(v *variable) bool {
	for _, e := range l.entries {
		if e.v == v {
			return true
		}
	}
	return false
}

// loopCtx collects what happens inside a loop body for the loop rules.
type loopCtx struct {
	// paged names a paged read the body makes (see pagedRead).
	paged string
	// over is what an ipairs/pairs loop iterates.
	over value
	// work: the body runs a command or a function that may (see
	// interp.work); without it a pass costs only Lua work.
	work bool
	// outside is the scope around the loop: locals found there or
	// above it outlive the loop's passes.
	outside *scope
}

type interp struct {
	c     *checker
	scope *scope
	frame *frame
	logs  []*writeLog
	// freeLogs are popped logs kept for reuse.
	freeLogs []*writeLog
	// vals is the stack exprList builds its lists on.
	vals   []value
	loops  []*loopCtx
	holes  holeCounter
	budget int
	// callerPlaces are the places functions being analysed gave their
	// parameters' data, innermost last, each mapped to the caller's place
	// (see rootPlace).
	callerPlaces []map[uint32]uint32
	// work counts the calls that may run commands: redis.call, local
	// functions, methods and unknown functions. A loop compares it before
	// and after its body.
	work int
	// analysed records function bodies already walked, so functions never
	// called can be walked once at the end.
	analysed map[*ast.FunctionExpr]bool
	// active are the function bodies being analysed, innermost last: a
	// call to one of them is recursion, which is not inlined again.
	active  []*ast.FunctionExpr
	pending []function
	// writtenInClosure names locals assigned inside some function body:
	// such a variable can change behind a loop's back.
	writtenInClosure map[string]bool
	// cutAt is the line of the first statement the budget skipped.
	cutAt int
	// present lists values the script wrote or tested (presence.go);
	// reads maps the calls of nil-bulk reads to the value they name.
	present []entry
	reads   map[*ast.FuncCallExpr]entry
	// scriptReply are the calls whose reply is returned as the script's
	// reply as it is (returnedCalls); replyCall is the redis.call being
	// evaluated.
	scriptReply map[*ast.FuncCallExpr]bool
	replyCall   *ast.FuncCallExpr
	// pos has the columns of strings and operators; namePos is where the
	// command name of the redis.call being evaluated is (zero: unknown).
	pos     positions
	namePos Position
	// chunk is the script's tree; identPos, built from it on first use,
	// has the columns of identifier nodes (identPosition); identAt is
	// the identifier being read, for the finding a global read gives.
	chunk    []ast.Stmt
	identPos map[*ast.IdentExpr]Position
	identAt  *ast.IdentExpr
	// unreferenced are the bodies of local functions the file never
	// names; namesElsewhere is above zero while one of them, or a
	// fragment (fragments.go), is analysed: free names are then defined by
	// another file or never read, and only removedGlobals are LUA302.
	unreferenced   map[*ast.FunctionExpr]bool
	namesElsewhere int
	// quietNil is a nil test that nilBesideFalse found redundant.
	quietNil *ast.RelationalOpExpr
	// truthDone are the expressions LUA305 reported, each once however
	// often its code is analysed, or found harmless (quietTruth).
	truthDone map[ast.Expr]bool
}

func newInterp(c *checker) *interp {
	return &interp{c: c, analysed: map[*ast.FunctionExpr]bool{}, truthDone: map[ast.Expr]bool{}}
}

// runChunk analyses the chunk; closureWrites is walkChunk's.
func (in *interp) runChunk(chunk []ast.Stmt, closureWrites map[string]bool) {
	in.budget = budgetPerNode * (len(in.c.toks.list) + 16)
	in.pos = buildPositions(chunk, in.c.toks)
	in.chunk = chunk
	in.writtenInClosure = closureWrites
	in.scriptReply = returnedCalls(chunk)
	in.scope = &scope{decls: &declarations{}}
	for name := range strings.SplitSeq(in.c.opts.Globals, ",") {
		if name = strings.TrimSpace(name); name != "" {
			in.scope.declare(name, unknown)
		}
	}
	in.frame = &frame{vararg: true, noWrites: in.c.flags.noWrites || in.c.opts.ReadOnly, allowCross: in.c.flags.allowCrossSlot}
	in.block(chunk)
	// Functions never called: analyse their bodies with unknown parameters.
	for i := 0; i < len(in.pending); i++ {
		f := in.pending[i]
		if in.analysed[f.def] || in.includedElsewhere(f.def) {
			continue
		}
		in.callFunction(f, nil, 0, &frame{vararg: f.def.ParList.HasVargs, noWrites: in.frame.noWrites, allowCross: in.frame.allowCross})
	}
	if in.cutAt > 0 {
		in.c.reportCol(in.cutAt, 1, RuleSyntax, "script only partly checked: its analysis reached the checker's bound of %d steps (%d per token) here, so findings may be missing", budgetPerNode*(len(in.c.toks.list)+16), budgetPerNode)
	}
}

// includedElsewhere reports whether a function the script never calls
// was defined in a file it includes. It is code this script never runs,
// and the included file's own check, when that file is checked too,
// analyses it with unknown parameters as every includer did; skipping it
// in each includer spared 17% of the CPU time of a run over the 257-file
// speed set and changed no finding there or in the held-out sets.
func (in *interp) includedElsewhere(def *ast.FunctionExpr) bool {
	if in.c.opts.segments == nil {
		return false
	}
	file := mapBack(Position{Line: def.Line()}, *in.c.opts.segments).File
	return file != in.c.opts.Filename && file != in.c.opts.PreludeFile
}

// step spends budget; false means stop analysing deeper.
func (in *interp) step() bool {
	in.budget--
	return in.budget > 0
}

func (in *interp) block(stmts []ast.Stmt) {
	saved := in.scope
	in.scope = saved.child()
	for _, s := range stmts {
		in.stmt(s)
	}
	in.scope = saved
}

func (in *interp) setVar(v *variable, val value) {
	if n := len(in.logs); n > 0 {
		l := in.logs[n-1]
		if !l.has(v) {
			l.entries = append(l.entries, logEntry{v, v.val})
		}
	}
	if val.maybeNil {
		v.guarded = false
	}
	// A new value is not known to be above zero.
	v.positive = false
	v.def = nil
	v.val = val
}

func (in *interp) pushLog() *writeLog {
	var l *writeLog
	if n := len(in.freeLogs); n > 0 {
		l, in.freeLogs = in.freeLogs[n-1], in.freeLogs[:n-1]
	} else {
		l = &writeLog{}
	}
	in.logs = append(in.logs, l)
	return l
}

func (in *interp) popLog() *writeLog {
	l := in.logs[len(in.logs)-1]
	in.logs = in.logs[:len(in.logs)-1]
	return l
}

// releaseLog keeps a popped log's storage for the next pushLog.
func (in *interp) releaseLog(l *writeLog) {
	clear(l.entries)
	l.entries = l.entries[:0]
	in.freeLogs = append(in.freeLogs, l)
}

// branches runs each path from the same starting state and joins the
// variables they wrote. A nil path is the path that does nothing.
func (in *interp) branches(paths ...func()) {
	// ws lists the variables the paths wrote, in the order first written;
	// a variable's value after path i is afters[w.at+i] when sets[w.at+i],
	// otherwise before. Flat slices rather than two per variable.
	type written struct {
		v      *variable
		before value
		at     int
	}
	var ws []written
	var afters []value
	var sets []bool
	for i, p := range paths {
		l := in.pushLog()
		if p != nil {
			p()
		}
		in.popLog()
		for _, e := range l.entries {
			k := -1
			for j := range ws {
				if ws[j].v == e.v {
					k = j
					break
				}
			}
			if k < 0 {
				k = len(ws)
				ws = append(ws, written{v: e.v, before: e.old, at: len(afters)})
				afters = append(afters, make([]value, len(paths))...)
				sets = append(sets, make([]bool, len(paths))...)
			}
			afters[ws[k].at+i], sets[ws[k].at+i] = e.v.val, true
			e.v.val = e.old
		}
		in.releaseLog(l)
	}
	for _, w := range ws {
		var j value
		for i := range paths {
			nv := w.before
			if sets[w.at+i] {
				nv = afters[w.at+i]
			}
			if i == 0 {
				j = nv
			} else {
				j = join(j, nv, &in.holes)
			}
		}
		guarded := w.v.guarded
		in.setVar(w.v, j)
		w.v.guarded = guarded || w.v.guarded
	}
}

func (in *interp) stmt(s ast.Stmt) {
	if !in.step() {
		if in.cutAt == 0 {
			in.cutAt = max(s.Line(), 1)
		}
		return
	}
	switch s := s.(type) {
	case *ast.LocalAssignStmt:
		in.localAssign(s)
	case *ast.AssignStmt:
		in.assign(s)
	case *ast.FuncCallStmt:
		if call, ok := s.Expr.(*ast.FuncCallExpr); ok {
			in.call(call)
		} else {
			in.expr(s.Expr)
		}
	case *ast.DoBlockStmt:
		in.block(s.Stmts)
	case *ast.WhileStmt:
		in.whileStmt(s)
	case *ast.RepeatStmt:
		in.repeatStmt(s)
	case *ast.IfStmt:
		in.expr(s.Condition)
		in.truthTested(s.Condition, false)
		in.cond(s.Condition)
		pos := in.positiveOtherwise(s.Condition)
		in.branches(func() {
			narrowed := in.equalsKeys(s.Condition, nil)
			in.block(s.Then)
			in.widen(narrowed)
		}, func() {
			var set []*variable
			for _, v := range pos {
				if !v.positive {
					v.positive = true
					set = append(set, v)
				}
			}
			in.block(s.Else)
			for _, v := range set {
				v.positive = false
			}
		})
	case *ast.NumberForStmt:
		in.numberFor(s)
	case *ast.GenericForStmt:
		in.genericFor(s)
	case *ast.FuncDefStmt:
		in.funcDef(s)
	case *ast.ReturnStmt:
		defer in.release(in.mark())
		vals := in.exprList(s.Exprs)
		for i, v := range vals {
			if i < len(in.frame.returns) {
				in.frame.returns[i] = join(in.frame.returns[i], v, &in.holes)
			} else {
				in.frame.returns = append(in.frame.returns, v)
			}
		}
	}
}

func (in *interp) localAssign(s *ast.LocalAssignStmt) {
	// "local function f" and "local f = function" parse alike; declaring
	// first lets a recursive helper find itself.
	if len(s.Names) == 1 && len(s.Exprs) == 1 {
		if fe, ok := s.Exprs[0].(*ast.FunctionExpr); ok {
			v := in.scope.declare(s.Names[0], value{})
			v.val = in.functionValue(fe)
			return
		}
	}
	defer in.release(in.mark())
	vals := in.exprList(s.Exprs)
	for i, name := range s.Names {
		val := value{kind: kNil}
		if i < len(vals) {
			val = vals[i]
			val.spread = false
		}
		nv := in.scope.declare(name, val)
		if i < len(s.Exprs) {
			nv.validates = in.validatedVar(s.Exprs[i])
		}
		if len(s.Names) == 1 && len(s.Exprs) == 1 {
			nv.def = s.Exprs[0]
		}
	}
}

// validatedVar returns the local that e checks when e is a call that yields
// nil for bad input: string.match/string.find/tonumber of a local, in
// function or method form.
func (in *interp) validatedVar(e ast.Expr) *variable {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return nil
	}
	var arg ast.Expr
	switch {
	case call.Receiver != nil && (call.Method == "match" || call.Method == "find"):
		arg = call.Receiver
	case len(call.Args) > 0:
		switch f := call.Func.(type) {
		case *ast.IdentExpr:
			if f.Value == "tonumber" {
				arg = call.Args[0]
			}
		case *ast.AttrGetExpr:
			obj, ok1 := f.Object.(*ast.IdentExpr)
			key, ok2 := f.Key.(*ast.StringExpr)
			if ok1 && ok2 && obj.Value == "string" && (key.Value == "match" || key.Value == "find") {
				arg = call.Args[0]
			}
		}
	}
	if id, ok := arg.(*ast.IdentExpr); ok {
		return in.scope.lookup(id.Value)
	}
	return nil
}

func (in *interp) assign(s *ast.AssignStmt) {
	defer in.release(in.mark())
	vals := in.exprList(s.Rhs)
	for i, lhs := range s.Lhs {
		val := value{kind: kNil}
		if i < len(vals) {
			val = vals[i]
			val.spread = false
		}
		switch l := lhs.(type) {
		case *ast.IdentExpr:
			if v := in.scope.lookup(l.Value); v != nil {
				in.setVar(v, val)
				continue
			}
			in.globalWrite(l, s.Line(), false)
		case *ast.AttrGetExpr:
			in.expr(l.Object)
			if k := in.expr(l.Key); k.kind == kNumber && !isLiteral(l.Key) {
				// t[#t + 1] = item, t[i] = item: the array grows.
				in.filledWhole(l.Object)
			}
			in.filled(l.Object, val)
			if id, ok := l.Object.(*ast.IdentExpr); ok {
				member := "[" + exprLabel(l.Key) + "]"
				if k, ok := l.Key.(*ast.StringExpr); ok {
					member = k.Value
				}
				in.libraryWrite(id, member, s.Line(), false)
			}
		}
	}
}

func (in *interp) funcDef(s *ast.FuncDefStmt) {
	if s.Name == nil {
		in.functionValue(s.Func)
		return
	}
	if s.Name.Receiver != nil || s.Name.Method != "" {
		// "function T:m()" binds self as its first parameter.
		in.methodValue(s.Func)
		in.expr(s.Name.Receiver)
		if id, ok := s.Name.Receiver.(*ast.IdentExpr); ok {
			in.libraryWrite(id, s.Name.Method, s.Line(), true)
		}
		return
	}
	fv := in.functionValue(s.Func)
	switch f := s.Name.Func.(type) {
	case *ast.IdentExpr:
		if v := in.scope.lookup(f.Value); v != nil {
			in.setVar(v, fv)
			return
		}
		in.globalWrite(f, s.Line(), true)
	case *ast.AttrGetExpr:
		in.expr(f.Object)
		if id, ok := f.Object.(*ast.IdentExpr); ok {
			k, _ := f.Key.(*ast.StringExpr)
			in.libraryWrite(id, stringOf(k), s.Line(), true)
		}
	}
}

func stringOf(e *ast.StringExpr) string {
	if e == nil {
		return "?"
	}
	return e.Value
}

// readOnlyLibraries are the sandbox's global tables. Redis 7.0 makes them
// read-only: a new member fails with "Attempt to modify a readonly table"
// (checked on a real server). KEYS and ARGV are per-call tables.
var readOnlyLibraries = map[string]bool{
	"_G": true, "bit": true, "cjson": true, "cmsgpack": true, "coroutine": true,
	"math": true, "redis": true, "string": true, "struct": true, "table": true,
}

// libraryWrite is LUA301 for "function table.extend()", "string.x = v"
// and the like: obj names a sandbox library, not a local.
func (in *interp) libraryWrite(obj *ast.IdentExpr, member string, line int, isFunc bool) {
	if !readOnlyLibraries[obj.Value] || in.scope.lookup(obj.Value) != nil {
		return
	}
	what := "assignment to " + obj.Value + "." + member
	anchor, keyword := obj.Value, ""
	if isFunc {
		what = "function " + obj.Value + "." + member
		anchor, keyword = "function", "function"
	}
	in.reportAtName(obj, keyword, line, anchor, RuleGlobalWrite, "%s writes into the library table %s: Redis's sandbox makes library tables read-only (\"Attempt to modify a readonly table\"); use a local table or function", what, obj.Value)
}

func (in *interp) methodValue(fe *ast.FunctionExpr) value {
	v := in.functionValue(fe)
	v.fn.method = true
	in.pending[len(in.pending)-1].method = true
	return v
}

func (in *interp) functionValue(fe *ast.FunctionExpr) value {
	f := &function{def: fe, env: in.scope, seen: in.scope.counter().n}
	in.pending = append(in.pending, *f)
	return value{kind: kFunc, fn: f}
}

// exprList evaluates expressions; a call or "..." in the last position
// expands to all its results.
func (in *interp) exprList(es []ast.Expr) []value {
	if len(es) == 1 {
		// A lone call's results are the list: no copy. The slice is fresh
		// or a finished frame's returns, and no caller writes to it. The
		// list is never nil: callFunction reads nil args as "unknown".
		if call, ok := es[0].(*ast.FuncCallExpr); ok {
			if out := in.call(call); out != nil {
				return out
			}
			return []value{}
		}
	}
	if len(es) == 0 {
		return []value{}
	}
	// The list is built on in.vals, a stack the callers release (see
	// mark): expression lists are short-lived and nest.
	start := len(in.vals)
	for i, e := range es {
		if i == len(es)-1 {
			if call, ok := e.(*ast.FuncCallExpr); ok {
				in.vals = append(in.vals, in.call(call)...)
				continue
			}
		}
		v := in.expr(e)
		in.vals = append(in.vals, v)
	}
	return in.vals[start:len(in.vals):len(in.vals)]
}

// mark and release bracket the use of an exprList result:
//
//	defer in.release(in.mark())
//	vals := in.exprList(es)
//
// Lists built while vals is in use (nested calls) sit above it on the
// stack and are released by their own callers first; if the stack grows
// meanwhile, vals still reads its old, unchanged backing array. Nothing
// keeps a list beyond its release: values are copied out of it.
func (in *interp) mark() int { return len(in.vals) }

func (in *interp) release(mark int) {
	clear(in.vals[mark:])
	in.vals = in.vals[:mark]
}

func first(vs []value) value {
	if len(vs) == 0 {
		return value{kind: kNil}
	}
	v := vs[0]
	v.spread = false
	return v
}

func (in *interp) expr(e ast.Expr) value {
	if e == nil || !in.step() {
		return unknown
	}
	switch e := e.(type) {
	case *ast.NilExpr:
		return value{kind: kNil}
	case *ast.TrueExpr, *ast.FalseExpr:
		return value{kind: kBool}
	case *ast.NumberExpr:
		return value{kind: kNumber, key: slot.Literal(e.Value), hasKey: true, clamped: true}
	case *ast.StringExpr:
		return literal(e.Value)
	case *ast.Comma3Expr:
		return value{kind: kUnknown, spread: true}
	case *ast.IdentExpr:
		return in.ident(e)
	case *ast.AttrGetExpr:
		return in.index(e)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			in.expr(f.Key)
			in.expr(f.Value)
		}
		return value{kind: kTable}
	case *ast.FuncCallExpr:
		return first(in.call(e))
	case *ast.LogicalOpExpr:
		if t := nilBesideFalse(e); t != nil {
			in.quietNil = t
		}
		// "head and #head > 0", "not head or #head == 0": the other side
		// does the work; the truth test is redundant, not wrong.
		in.quietTruth(e.Lhs, e.Rhs)
		in.quietTruth(e.Rhs, e.Lhs)
		l := in.expr(e.Lhs)
		if _, chain := e.Lhs.(*ast.LogicalOpExpr); e.Operator == "and" && !chain {
			// "reply and a or b": the reply decides. A reply before "or"
			// only makes the default dead, which is harmless. (An and/or
			// on the left tests its own operands when it is evaluated.)
			in.truthTested(e.Lhs, false)
		}
		in.cond(e.Lhs)
		r := in.expr(e.Rhs)
		if e.Operator == "or" {
			// "x or d": x when truthy, else d; never nil unless d may be.
			out := join(l, r, &in.holes)
			out.maybeNil = r.maybeNil || r.kind == kNil
			if l.kind == r.kind && l.kind == kNumber {
				out.kind = kNumber
			}
			if _, ok := r.literalText(); ok && r.kind == kNumber {
				// "(ZCARD k or 0)": a size, or the size of nothing; the
				// caller's stop, or a default one.
				out.kind = kNumber
				out.size, out.caller = l.size, l.callerNumber()
			}
			return out
		}
		return value{kind: kUnknown, src: l.src | r.src}
	case *ast.RelationalOpExpr:
		l, r := in.expr(e.Lhs), in.expr(e.Rhs)
		in.relational(e, l, r)
		return value{kind: kBool}
	case *ast.StringConcatOpExpr:
		l, r := in.expr(e.Lhs), in.expr(e.Rhs)
		return in.concat(l, r)
	case *ast.ArithmeticOpExpr:
		l, r := in.expr(e.Lhs), in.expr(e.Rhs)
		in.arithmetic(e, e.Line(), e.Operator, l)
		in.arithmetic(e, e.Line(), e.Operator, r)
		lt, lit := l.literalText()
		_, rlit := r.literalText()
		return value{kind: kNumber, src: l.src | r.src, clamped: l.clamped && r.clamped,
			fromEnd: e.Operator == "-" && lit && l.kind == kNumber && strings.HasPrefix(lt, "-"),
			size:    l.size && (e.Operator == "-" || e.Operator == "+") || r.size && e.Operator == "+",
			// A count the caller passes turned into a stop index ("n - 1")
			// is still the caller's number: n = 0 gives -1, the end. A
			// sum ("first + 99") is a page after the caller's start.
			caller: e.Operator == "-" && l.callerNumber() && rlit && r.kind == kNumber}
	case *ast.UnaryMinusOpExpr:
		if n, ok := e.Expr.(*ast.NumberExpr); ok {
			// Negative literals such as LRANGE's -1 stay constants.
			return value{kind: kNumber, key: slot.Literal("-" + n.Value), hasKey: true, clamped: true, minus: true}
		}
		v := in.expr(e.Expr)
		in.arithmetic(e, e.Line(), "-", v)
		return value{kind: kNumber, src: v.src, minus: true}
	case *ast.UnaryNotOpExpr:
		in.expr(e.Expr)
		in.truthTested(e.Expr, true)
		in.cond(e.Expr)
		return value{kind: kBool}
	case *ast.UnaryLenOpExpr:
		v := in.expr(e.Expr)
		if v.maybeNil && v.cmd != "" {
			l, col := in.opPos(e, e.Line(), "#")
			in.c.reportCol(l, col, RuleMaybeNil, "length (#) of %s: %s, and taking its length raises an error (\"attempt to get length of ... (a %s value)\"; guard it or use \"or ''\")", describeMaybeNil(v), whenNil(v), missingType(v))
		}
		return in.lengthOf(v)
	case *ast.FunctionExpr:
		return in.functionValue(e)
	}
	return unknown
}

// lengthOf is #v, or table.getn(v).
func (in *interp) lengthOf(v value) value {
	switch v.kind {
	case kKeys:
		in.c.res.DynamicKeys = true
		return value{kind: kNumber, src: fromKeysLen}
	case kArgv:
		return value{kind: kNumber, src: fromArgvLen}
	}
	if requestData(v) {
		return value{kind: kNumber, src: fromArgsList}
	}
	// The length of a reply is bounded by the read that produced it:
	// a page is no new source of work, a whole collection is.
	return value{kind: kNumber, src: v.src &^ fromReply, cmd: v.cmd}
}

func (in *interp) concat(l, r value) value {
	if (l.kind == kString || l.kind == kNumber) && (r.kind == kString || r.kind == kNumber) && l.hasKey && r.hasKey {
		return value{kind: kString, key: slot.Concat(l.key, r.key), hasKey: true, src: l.src | r.src}
	}
	// Unknown text keeps its place as a hole, so the key's shape survives.
	lk, rk := in.textOf(l), in.textOf(r)
	return value{kind: kString, key: slot.Concat(lk, rk), hasKey: true, src: l.src | r.src}
}

// textOf returns v as key text: its own when known, else a fresh hole.
func (in *interp) textOf(v value) slot.Key {
	if v.hasKey && (v.kind == kString || v.kind == kNumber) {
		return v.key
	}
	switch {
	case v.src&fromReply != 0:
		return in.holes.nextAt(holeReply, "a reply of "+orSome(v.cmd), v.at)
	case v.src&(fromDecoded|fromArgv) == fromDecoded && v.src&fromKeysText != 0:
		return in.holes.nextAt(holeKeysData, "data decoded from KEYS", v.at)
	case v.src&fromArgv != 0:
		return in.holes.nextAt(holeData, "data from ARGV", v.at)
	case v.src&fromDecoded != 0:
		// Decoded from text of no known origin: like any computed value.
		return in.holes.next(holeOther, "decoded data")
	case v.src&fromLiteralText != 0:
		return in.holes.nextAt(holeLiteralData, "data decoded from a literal", v.at)
	}
	return in.holes.next(holeOther, "a computed value")
}

func orSome(cmd string) string {
	if cmd == "" {
		return "a command"
	}
	return cmd
}

// sandboxGlobals are the globals Redis 7.0's script sandbox provides (read
// from a real server's _G). Functions libraries have the same minus KEYS
// and ARGV.
var sandboxGlobals = map[string]bool{
	"KEYS": true, "ARGV": true, "_G": true, "_VERSION": true, "assert": true,
	"bit": true, "cjson": true, "cmsgpack": true, "collectgarbage": true,
	"coroutine": true, "error": true, "gcinfo": true, "getmetatable": true,
	"ipairs": true, "load": true, "loadstring": true, "math": true, "next": true,
	"pairs": true, "pcall": true, "rawequal": true, "rawget": true, "rawset": true,
	"redis": true, "select": true, "setmetatable": true, "string": true,
	"struct": true, "table": true, "tonumber": true, "tostring": true,
	"type": true, "unpack": true, "xpcall": true,
}

// builtins are the global functions and library members the interpreter
// models.
var builtins = map[string]bool{
	"redis.call": true, "redis.pcall": true, "redis.register_function": true,
	"redis.error_reply": true, "redis.status_reply": true,
	"pcall": true, "unpack": true, "tonumber": true, "tostring": true,
	"ipairs": true, "pairs": true, "error": true, "assert": true, "type": true,
	"math.min": true, "math.max": true, "math.floor": true, "math.ceil": true, "math.abs": true,
	"cjson.decode": true, "cmsgpack.unpack": true, "string.format": true,
	"table.concat": true, "string.sub": true, "string.lower": true, "string.upper": true,
	"string.gsub": true, "table.getn": true,
}

func (in *interp) ident(e *ast.IdentExpr) value {
	if v := in.scope.lookup(e.Value); v != nil {
		val := v.val
		if v.guarded {
			val.maybeNil = false
		}
		if v.clamped {
			val.clamped = true
		}
		return val
	}
	in.identAt = e
	v := in.global(e.Value, e.Line())
	in.identAt = nil
	return v
}

// global is the value of a global name, reporting names the sandbox lacks.
func (in *interp) global(name string, line int) value {
	if name == "arg" && in.frame.implicitArg {
		// Lua 5.1 gives vararg functions an implicit local "arg".
		return value{kind: kTable}
	}
	if in.c.opts.Function && (name == "KEYS" || name == "ARGV") {
		in.c.reportAt(line, name, RuleMissingGlobal, "%s is not a global in a function library: Redis fails with \"attempted to access nonexistent global variable '%s'\"; use the callback's keys and args parameters", name, name)
		return unknown
	}
	if !sandboxGlobals[name] {
		in.missingGlobal(name, name, line)
		return unknown
	}
	switch name {
	case "KEYS":
		return value{kind: kKeys, lib: "KEYS"}
	case "ARGV":
		return value{kind: kArgv, lib: "ARGV", src: fromArgv}
	}
	if builtins[name] {
		return value{kind: kFunc, lib: name}
	}
	return value{kind: kTable, lib: name}
}

func (in *interp) missingGlobal(name, shown string, line int) {
	if in.namesElsewhere > 0 && !removedGlobals[name] {
		return
	}
	at := in.identAt
	report := func(anchor, msg string) {
		pos := Position{Line: line, Column: in.c.toks.column(line, anchor)}
		if at != nil && at.Value == name {
			if p, ok := in.identPosition(at); ok {
				pos = p
			}
		}
		in.c.report(Finding{
			Pos:     pos,
			Rule:    RuleMissingGlobal,
			Message: msg,
			global:  name,
		})
	}
	msg := sprintf("global %s does not exist in Redis's script sandbox: the script fails with \"attempted to access nonexistent global variable '%s'\"", shown, name)
	switch name {
	case "os":
		if shown == "os.clock" {
			report("os", "os.clock exists in Redis's script sandbox only since Redis 7.4: on earlier servers the script fails with \"attempted to access nonexistent global variable 'os'\"")
			return
		}
		if shown == "os.time" {
			report("os", msg+"; for the time use redis.call(\"TIME\")")
			return
		}
	case "print":
		report(name, msg+"; use redis.log")
		return
	}
	report(name, msg)
}

func (in *interp) globalWrite(e *ast.IdentExpr, line int, isFunc bool) {
	name := e.Value
	what := "assignment to global variable " + name
	anchor, keyword := name, ""
	if isFunc {
		what = "global function " + name
		anchor, keyword = "function", "function"
	}
	in.reportAtName(e, keyword, line, anchor, RuleGlobalWrite, "%s: Redis's sandbox refuses to create globals (\"Attempt to modify a readonly table\"); declare it local", what)
}

// reportAtName reports rule at the name e (or the keyword before it),
// falling back to the first token spelled anchor on line.
func (in *interp) reportAtName(e *ast.IdentExpr, keyword string, line int, anchor, rule, format string, args ...any) {
	if p, ok := in.namePosition(e, keyword); ok {
		in.c.reportCol(p.Line, p.Column, rule, format, args...)
		return
	}
	in.c.reportAt(line, anchor, rule, format, args...)
}

func (in *interp) index(e *ast.AttrGetExpr) value {
	// os.time, io.open, debug.traceback: name the member in the message.
	if id, ok := e.Object.(*ast.IdentExpr); ok && in.scope.lookup(id.Value) == nil && !sandboxGlobals[id.Value] &&
		!(id.Value == "arg" && in.frame.implicitArg) {
		if k, ok := e.Key.(*ast.StringExpr); ok {
			in.identAt = id
			in.missingGlobal(id.Value, id.Value+"."+k.Value, e.Line())
			in.identAt = nil
			return unknown
		}
	}
	obj := in.expr(e.Object)
	k := in.expr(e.Key)
	ks, lit := k.literalText()
	switch obj.kind {
	case kKeys:
		if n, err := strconv.Atoi(ks); lit && err == nil && k.kind == kNumber {
			in.keysRead(n, e.Line(), obj.label())
			return value{kind: kString, key: slot.HoleKey(holeID{origin: "KEYS", index: ks}, obj.label()+"["+ks+"]"), hasKey: true}
		}
		in.c.res.DynamicKeys = true
		return value{kind: kString, key: in.holes.next("KEYS", obj.label()+"["+exprLabel(e.Key)+"]"), hasKey: true}
	case kArgv:
		if _, err := strconv.Atoi(ks); lit && err == nil && k.kind == kNumber {
			return value{kind: kString, key: slot.HoleKey(holeID{origin: "ARGV", index: ks}, obj.label()+"["+ks+"]"), hasKey: true, src: fromArgv}
		}
		return value{kind: kString, key: in.holes.next("ARGV", obj.label()+"["+exprLabel(e.Key)+"]"), hasKey: true, src: fromArgv}
	case kReply:
		return value{kind: kUnknown, src: fromReply, cmd: obj.cmd, at: fieldPlace(obj.at, ks, lit), listed: obj.cmd == "KEYS"}
	case kTable:
		if obj.lib != "" && lit {
			name := obj.lib + "." + ks
			if builtins[name] {
				return value{kind: kFunc, lib: name}
			}
			return value{kind: kUnknown, lib: name}
		}
		return value{kind: kUnknown, src: obj.src, cmd: obj.cmd, at: fieldPlace(obj.at, ks, lit)}
	}
	return value{kind: kUnknown, src: obj.src, cmd: obj.cmd, at: fieldPlace(obj.at, ks, lit)}
}

// fieldPlace is the place of one field of data read at at: the fields of
// one reply or decoded value (HMGET's parentKey and deid, a payload's
// parent key and job id) are different data, each its own cause of
// LUA201. A computed index (an item of a list in a loop) keeps the
// place of the whole.
func fieldPlace(at uint32, field string, lit bool) uint32 {
	if at == 0 || !lit {
		return at
	}
	h := at
	for i := 0; i < len(field); i++ {
		h = (h ^ uint32(field[i])) * 16777619
	}
	return (h ^ uint32(len(field))) &^ (1 << 31)
}

// label is how a KEYS/ARGV table is written in messages: "KEYS", or a
// Functions callback's parameter name.
func (v value) label() string {
	if v.lib != "" {
		return v.lib
	}
	if v.kind == kKeys {
		return "KEYS"
	}
	return "ARGV"
}

func exprLabel(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.IdentExpr:
		return e.Value
	case *ast.NumberExpr:
		return e.Value
	}
	return "?"
}

// cond marks variables tested for truthiness or nil (guards for LUA304) and
// variables compared with constants (clamps for LUA102).
func (in *interp) cond(e ast.Expr) {
	switch e := e.(type) {
	case *ast.FuncCallExpr:
		in.testedCall(e)
	case *ast.IdentExpr:
		for v, n := in.scope.lookup(e.Value), 0; v != nil && n < 8; v, n = v.validates, n+1 {
			v.guarded = true
		}
	case *ast.UnaryNotOpExpr:
		in.cond(e.Expr)
	case *ast.LogicalOpExpr:
		in.cond(e.Lhs)
		in.cond(e.Rhs)
	case *ast.RelationalOpExpr:
		l, r := e.Lhs, e.Rhs
		if isNilOrFalse(l) {
			l, r = r, l
		}
		switch e.Operator {
		case "==", "~=":
			if isNilOrFalse(r) {
				in.cond(l)
			}
			in.existenceTest(l, r)
			// type(v) == "number"
			if call, ok := l.(*ast.FuncCallExpr); ok && len(call.Args) == 1 {
				if id, ok := call.Func.(*ast.IdentExpr); ok && id.Value == "type" {
					in.cond(call.Args[0])
				}
			}
		case "<", "<=", ">", ">=":
			in.lengthGuard(e)
			for _, pair := range [][2]ast.Expr{{e.Lhs, e.Rhs}, {e.Rhs, e.Lhs}} {
				if id, ok := pair[0].(*ast.IdentExpr); ok && in.isConstant(pair[1]) {
					if v := in.scope.lookup(id.Value); v != nil {
						v.clamped = true
					}
				}
			}
		}
	}
}

// equalsKeys narrows, for the branch a condition guards, a local compared
// equal to a local holding one KEYS element: "for _, v in pairs(KEYS) do
// if v == queue then redis.call('lpush', queue, ...)" uses a declared key,
// whatever queue was built from. Only locals on both sides: reading them
// runs nothing. It returns the locals narrowed, with their values before
// and after.
func (in *interp) equalsKeys(e ast.Expr, narrowed []narrowing) []narrowing {
	switch e := e.(type) {
	case *ast.LogicalOpExpr:
		if e.Operator == "and" {
			narrowed = in.equalsKeys(e.Lhs, narrowed)
			narrowed = in.equalsKeys(e.Rhs, narrowed)
		}
	case *ast.RelationalOpExpr:
		if e.Operator != "==" {
			return narrowed
		}
		l, ok1 := e.Lhs.(*ast.IdentExpr)
		r, ok2 := e.Rhs.(*ast.IdentExpr)
		if !ok1 || !ok2 {
			return narrowed
		}
		lv, rv := in.scope.lookup(l.Value), in.scope.lookup(r.Value)
		if lv == nil || rv == nil {
			return narrowed
		}
		if in.keysText(lv.val) {
			lv, rv = rv, lv
		}
		if in.keysText(rv.val) && !in.keysText(lv.val) {
			narrowed = append(narrowed, narrowing{lv, lv.val, rv.val.key})
			in.setVar(lv, rv.val)
		}
	}
	return narrowed
}

// widen gives the locals equalsKeys narrowed their values back at the end
// of the branch, unless the branch wrote another: the narrowed value is
// the same text, known only inside the guard.
func (in *interp) widen(narrowed []narrowing) {
	for i := len(narrowed) - 1; i >= 0; i-- {
		n := narrowed[i]
		if in.keysText(n.v.val) && n.v.val.key.Equal(n.to) {
			n.v.val = n.old
		}
	}
}

// narrowing is a local equalsKeys narrowed: its value before, and the key
// it was given.
type narrowing struct {
	v   *variable
	old value
	to  slot.Key
}

func isNilOrFalse(e ast.Expr) bool {
	switch e.(type) {
	case *ast.NilExpr, *ast.FalseExpr:
		return true
	}
	return false
}

// isConstant: a number literal. A local initialised from one is not
// enough: it is usually the loop's counter.
func (in *interp) isConstant(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.NumberExpr:
		return true
	case *ast.UnaryMinusOpExpr:
		_, ok := e.Expr.(*ast.NumberExpr)
		return ok
	}
	return false
}

func (in *interp) keysRead(n, line int, label string) {
	if n > in.c.res.MaxKeysIndex {
		in.c.res.MaxKeysIndex = n
	}
	if i, found := slices.BinarySearch(in.c.res.KeysRead, n); !found {
		in.c.res.KeysRead = slices.Insert(in.c.res.KeysRead, i, n)
	}
	in.checkKeysIndex(n, line, label)
}

// call evaluates a function call and returns its results.
func (in *interp) call(e *ast.FuncCallExpr) []value {
	if e.Receiver != nil {
		recv := in.expr(e.Receiver)
		defer in.release(in.mark())
		args := in.exprList(e.Args)
		if recv.maybeNil && recv.cmd != "" {
			in.c.reportCol(e.Line(), in.c.toks.column(e.Line(), e.Method), RuleMaybeNil, "method %s called on %s: %s, and indexing it raises an error (\"attempt to index ... (a %s value)\"; guard it first)", e.Method, describeMaybeNil(recv), whenNil(recv), missingType(recv))
		}
		if recv.kind == kString {
			// s:lower(), s:gsub(p, r): the string library, Lua work only.
			switch e.Method {
			case "lower", "upper", "sub", "rep", "reverse":
				return []value{{kind: kString, src: recv.src, cmd: recv.cmd, at: recv.at}}
			case "gsub":
				repl := value{kind: kNil}
				if len(args) > 1 {
					repl = args[1]
				}
				return []value{substituted(recv, repl, placeOf(e.Line(), in.c.toks.column(e.Line(), "gsub"))), {kind: kNumber}}
			case "byte", "find", "format", "gmatch", "len", "match":
				return []value{unknown}
			}
		}
		in.work++
		return []value{unknown}
	}
	f := in.expr(e.Func)
	defer in.release(in.mark())
	args := in.exprList(e.Args)
	line := e.Line()
	if f.kind != kFunc {
		if pureLibrary(f.lib) {
			// table.insert, string.find, cjson.encode...: Lua work only.
			if f.lib == "table.insert" && len(e.Args) >= 2 {
				in.filledWhole(e.Args[0])
				in.filled(e.Args[0], args[len(args)-1])
			}
			if len(args) > 0 {
				in.stringSubject(e, f.lib, args[0])
			}
			return []value{unknown}
		}
		in.work++
		return []value{unknown}
	}
	if f.fn != nil {
		// A local function walked here counts as work only if its body
		// runs a command (a pure helper that splits a string leaves a
		// loop's passes Lua work); one not walked (recursion, the
		// inlining limit) may run anything.
		walked := in.frame.inline < maxInline && in.budget > 0 && !slices.Contains(in.active, f.fn.def)
		rets := in.callFunction(*f.fn, args, line, nil)
		if !walked {
			in.work++
		}
		return rets
	}
	arg := func(i int) value {
		if i < len(args) {
			return args[i]
		}
		return value{kind: kNil}
	}
	switch f.lib {
	case "redis.call", "redis.pcall":
		in.namePos = in.argPos(e, 0)
		in.replyCall = e
		reply := in.command(line, f.lib, args)
		in.replyCall = nil
		if reply.cmd != "" {
			if ent, ok := readEntry(reply.cmd, args); ok {
				if in.reads == nil {
					in.reads = map[*ast.FuncCallExpr]entry{}
				}
				in.reads[e] = ent
				if in.isPresent(ent) {
					reply.maybeNil = false
				}
			}
			in.wrote(reply.cmd, args)
		}
		return []value{reply}
	case "pcall":
		if len(args) > 0 && args[0].kind == kFunc {
			if args[0].lib == "redis.call" || args[0].lib == "redis.pcall" {
				in.namePos = in.argPos(e, 1)
				return []value{{kind: kBool}, in.command(line, "pcall("+args[0].lib+")", args[1:])}
			}
			if args[0].fn != nil {
				return append([]value{{kind: kBool}}, in.callFunction(*args[0].fn, args[1:], line, nil)...)
			}
		}
		return []value{{kind: kBool}, unknown}
	case "unpack":
		t := arg(0)
		switch t.kind {
		case kKeys:
			in.c.res.DynamicKeys = true
			return []value{{kind: kString, key: in.holes.next("KEYS", "unpack("+t.label()+")"), hasKey: true, spread: true}}
		case kArgv:
			return []value{{kind: kString, key: in.holes.next("ARGV", "unpack("+t.label()+")"), hasKey: true, spread: true, src: fromArgv}}
		}
		if len(e.Args) == 1 {
			in.unpackWhole(e, t)
		}
		return []value{{kind: kUnknown, src: t.src, cmd: t.cmd, at: t.at, spread: true}}
	case "tonumber":
		v := arg(0)
		out := value{kind: kNumber, src: v.src, cmd: v.cmd, at: v.at, maybeNil: v.maybeNil, clamped: v.clamped, size: v.size, caller: v.callerNumber()}
		if s, ok := v.literalText(); ok {
			out.key, out.hasKey = slot.Literal(s), true
		}
		return []value{out}
	case "tostring":
		v := arg(0)
		out := value{kind: kString, src: v.src, cmd: v.cmd, at: v.at}
		if v.hasKey {
			out.key, out.hasKey = v.key, true
		}
		return []value{out}
	case "string.lower", "string.upper", "string.sub", "table.concat":
		v := arg(0)
		in.stringSubject(e, f.lib, v)
		return []value{{kind: kString, src: v.src, cmd: v.cmd, at: v.at}}
	case "table.getn":
		return []value{in.lengthOf(arg(0))}
	case "string.gsub":
		in.stringSubject(e, f.lib, arg(0))
		return []value{substituted(arg(0), arg(2), placeOf(line, in.c.toks.column(line, "gsub"))), {kind: kNumber}}
	case "math.min":
		out := value{kind: kNumber}
		for _, a := range args {
			out.src |= a.src
			out.clamped = out.clamped || a.clamped
			// A range stop of -1 (to the end) is the smaller.
			out.caller = out.caller || a.callerNumber()
		}
		return []value{out}
	case "math.max", "math.floor", "math.ceil", "math.abs":
		out := value{kind: kNumber, clamped: true}
		for _, a := range args {
			out.src |= a.src
			out.clamped = out.clamped && a.clamped
		}
		return []value{out}
	case "cjson.decode", "cmsgpack.unpack":
		if _, ok := arg(0).literalText(); ok {
			// Text written in the script decodes to constant data:
			// neither the request nor the stored data decides it.
			return []value{{kind: kTable, src: fromLiteralText, at: placeOf(line, in.c.toks.column(line, f.lib[strings.IndexByte(f.lib, '.')+1:]))}}
		}
		out := value{kind: kTable, src: fromDecoded | arg(0).src, at: placeOf(line, in.c.toks.column(line, f.lib[strings.IndexByte(f.lib, '.')+1:]))}
		if in.keysText(arg(0)) {
			// A list the caller packed into a KEYS element, as into ARGV.
			out.src |= fromKeysText
		}
		return []value{out}
	case "string.format":
		return []value{in.format(args)}
	case "redis.register_function":
		in.registerFunction(line, e.Args, args)
		return nil
	case "error":
		return nil
	}
	return []value{unknown}
}

// substituted is string.gsub's text: the subject's data with the
// replacement's put in (a key named by putting an id from a reply into a
// pattern from ARGV comes from both). A replacement that is a table or a
// function is looked up or called at run time: its data is unknown. The
// text is new data, made at place, unless the subject's data was read or
// decoded elsewhere: the keys built from one substitution are one cause.
func substituted(subject, repl value, place uint32) value {
	out := value{kind: kString, src: subject.src, cmd: subject.cmd, at: subject.at}
	switch repl.kind {
	case kString, kNumber, kReply:
		out.src |= repl.src
		if out.cmd == "" {
			out.cmd = repl.cmd
		}
	}
	if out.at == 0 && out.src != 0 {
		out.at = place
	}
	return out
}

// format models string.format with %s and %d verbs, so a key built as
// string.format("lock:%s", KEYS[1]) keeps its shape.
func (in *interp) format(args []value) value {
	if len(args) == 0 {
		return unknown
	}
	f, ok := args[0].literalText()
	if !ok {
		return value{kind: kString}
	}
	var parts []slot.Key
	next := 1
	var src source
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			j := strings.IndexByte(f[i:], '%')
			if j < 0 {
				j = len(f) - i
			}
			parts = append(parts, slot.Literal(f[i:i+j]))
			i += j - 1
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			parts = append(parts, slot.Literal("%"))
			i++
			continue
		}
		// Skip flags and width up to the verb.
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			return value{kind: kString}
		}
		var a value
		if next < len(args) {
			a = args[next]
		}
		next++
		src |= a.src
		if (f[j] == 's' || f[j] == 'd' || f[j] == 'i') && j == i+1 {
			parts = append(parts, in.textOf(a))
		} else {
			parts = append(parts, in.holes.next(holeOther, "a formatted value"))
		}
		i = j
	}
	return value{kind: kString, key: slot.Concat(parts...), hasKey: true, src: src}
}

// callFunction analyses a local function's body with its parameters bound
// to args (unknown when args is nil) and returns what it returns.
func (in *interp) callFunction(f function, args []value, line int, fr *frame) []value {
	if f.def == nil {
		return []value{unknown}
	}
	if fr == nil {
		if in.frame.inline >= maxInline || in.budget <= 0 || slices.Contains(in.active, f.def) {
			// Inlining a recursive call again re-walks the same body with
			// the same unknowns, twice per call site and level: on two
			// recursive job-queue helpers of the real-world set that was
			// the whole step budget (BENCHMARKS.md).
			return []value{unknown}
		}
		fr = &frame{vararg: f.def.ParList.HasVargs, inline: in.frame.inline + 1,
			fnName: in.frame.fnName, noWrites: in.frame.noWrites, allowCross: in.frame.allowCross}
	}
	in.analysed[f.def] = true
	if in.unreferenced[f.def] {
		in.namesElsewhere++
		defer func() { in.namesElsewhere-- }()
	}
	in.active = append(in.active, f.def)
	defer func() { in.active = in.active[:len(in.active)-1] }()
	fr.implicitArg = f.def.ParList.HasVargs
	savedScope, savedFrame, savedLogs, savedLoops := in.scope, in.frame, in.logs, in.loops
	in.scope = &scope{parent: f.env, seen: f.seen, limited: true, decls: f.env.counter()}
	in.frame = fr
	// Writes inside the function still need joining by the caller's
	// branches; loops of the caller do not contain the callee's loops.
	in.loops = nil
	if f.method {
		in.scope.declare("self", unknown)
	}
	// places maps the place given to a parameter's data back to the
	// caller's, for the values the function returns.
	var places map[uint32]uint32
	for i, name := range f.def.ParList.Names {
		v := unknown
		if args != nil {
			if i < len(args) {
				v = args[i]
				if v.spread {
					v = value{kind: kUnknown, src: v.src}
				}
			} else {
				v = value{kind: kNil}
			}
		}
		v.spread = false
		if !v.hasKey && v.src&(fromReply|fromArgv|fromDecoded|fromLiteralText) != 0 {
			// Inside the function, the keys built from this parameter
			// share one cause whichever caller's data it holds.
			if places == nil {
				places = map[uint32]uint32{}
			}
			place := paramPlace(f.def.Line(), i)
			places[place] = v.at
			v.at = place
			if in.c.params == nil {
				in.c.params = map[uint32]string{}
			}
			in.c.params[v.at] = name
		}
		in.scope.declare(name, v)
	}
	in.callerPlaces = append(in.callerPlaces, places)
	in.block(f.def.Stmts)
	in.callerPlaces = in.callerPlaces[:len(in.callerPlaces)-1]
	rets := in.frame.returns
	in.scope, in.frame, in.logs, in.loops = savedScope, savedFrame, savedLogs, savedLoops
	if len(rets) == 0 {
		return []value{{kind: kNil}}
	}
	if places != nil {
		rets = unplace(rets, places)
	}
	return rets
}

// rootPlace follows a parameter's place back through the calls being
// analysed to where its data was read or decoded: a helper's key built
// on its parentKey parameter and the includer's whole key from the same
// field of the payload are the same value.
func (in *interp) rootPlace(at uint32) uint32 {
	for i := len(in.callerPlaces) - 1; i >= 0; i-- {
		if from, ok := in.callerPlaces[i][at]; ok {
			at = from
		}
	}
	return at
}

// unplace gives the values a function returns the caller's places for
// the data of its parameters: outside the function, the parameter's
// name is no cause of anything.
func unplace(rets []value, places map[uint32]uint32) []value {
	out := make([]value, len(rets))
	for i, r := range rets {
		if at, ok := places[r.at]; ok {
			r.at = at
		}
		if r.hasKey && r.key.HasHoles() {
			r.key = r.key.Substitute(func(h slot.Hole) (slot.Key, bool) {
				id, ok := h.ID.(holeID)
				if !ok {
					return slot.Key{}, false
				}
				at, ok := places[id.at]
				if !ok {
					return slot.Key{}, false
				}
				id.at = at
				return slot.HoleKey(id, h.Label), true
			})
		}
		out[i] = r
	}
	return out
}

// registerFunction analyses a Functions callback with keys/args bound to
// KEYS and ARGV, in both redis.register_function('name', cb) and
// redis.register_function{function_name=..., callback=..., flags={...}}.
func (in *interp) registerFunction(line int, argExprs []ast.Expr, args []value) {
	var name string
	var cb value
	var flagsExpr ast.Expr
	switch {
	case len(argExprs) >= 2:
		name, _ = args[0].literalText()
		cb = args[1]
	case len(argExprs) == 1:
		t, ok := argExprs[0].(*ast.TableExpr)
		if !ok {
			return
		}
		for _, fld := range t.Fields {
			k, ok := fld.Key.(*ast.StringExpr)
			if !ok {
				continue
			}
			switch k.Value {
			case "function_name":
				name, _ = in.expr(fld.Value).literalText()
			case "callback":
				cb = in.expr(fld.Value)
			case "flags":
				flagsExpr = fld.Value
			}
		}
	default:
		return
	}
	fn := Function{Name: name, Pos: Position{File: in.c.opts.Filename, Line: line, Column: in.c.toks.column(line, "redis")}}
	fr := &frame{fnName: name, noWrites: in.c.opts.ReadOnly}
	if t, ok := flagsExpr.(*ast.TableExpr); ok {
		for _, fld := range t.Fields {
			s, ok := fld.Value.(*ast.StringExpr)
			if !ok {
				continue
			}
			if !knownFlags[s.Value] {
				in.c.reportAt(fld.Value.Line(), "", RuleSyntax, "unknown function flag %q (FUNCTION LOAD fails)", s.Value)
				continue
			}
			fn.Flags = append(fn.Flags, s.Value)
			switch s.Value {
			case "no-writes":
				fr.noWrites = true
			case "allow-cross-slot-keys":
				fr.allowCross = true
			}
		}
	}
	in.c.res.Functions = append(in.c.res.Functions, fn)
	if cb.kind != kFunc || cb.fn == nil {
		return
	}
	var params []value
	names := cb.fn.def.ParList.Names
	if len(names) > 0 {
		params = append(params, value{kind: kKeys, lib: names[0]})
	}
	if len(names) > 1 {
		params = append(params, value{kind: kArgv, lib: names[1], src: fromArgv})
	}
	fr.vararg = cb.fn.def.ParList.HasVargs
	in.callFunction(*cb.fn, params, line, fr)
}

// keysText reports whether v is exactly the text of one KEYS element.
func (in *interp) keysText(v value) bool {
	holes := v.key.Holes()
	return v.kind == kString && v.hasKey && len(v.key.Parts()) == 1 && len(holes) == 1 && holeOrigin(holes[0].ID) == "KEYS"
}

// pureLibrary: a member of a sandbox library table that only computes
// (no command, no callback into the script).
func pureLibrary(lib string) bool {
	table, _, ok := strings.Cut(lib, ".")
	if !ok || lib == "table.sort" {
		// table.sort calls back a comparator, which may run commands.
		return false
	}
	switch table {
	case "table", "string", "math", "cjson", "cmsgpack", "bit", "struct":
		return true
	}
	return false
}

// filled records that a loop over a reply holding a whole collection puts
// items of it into the local table named by target (t[#t + 1] = item,
// table.insert(t, item)): the table then grows with the collection, and a
// later loop over it (batches of a whole SMEMBERS) is bounded by the data.
func (in *interp) filled(target ast.Expr, item value) {
	id, ok := target.(*ast.IdentExpr)
	if !ok || item.src&fromReply == 0 {
		return
	}
	for _, l := range in.loops {
		if l.over.src&fromWholeRead == 0 {
			continue
		}
		if v := in.scope.lookup(id.Value); v != nil && v.val.kind == kTable && v.val.src&fromWholeRead == 0 {
			nv := v.val
			nv.src |= fromWholeRead
			if !item.hasKey {
				// The reply's own items: stored data, as keys too. A
				// key built from an item (ns .. ":job:" .. id) is judged
				// where it is built, by what decides its slot.
				nv.src |= fromReply
			}
			nv.cmd, nv.at = l.over.cmd, l.over.at
			in.setVar(v, nv)
		}
		return
	}
}

// argPos is where call argument i starts: a string literal's own
// position, otherwise the first token of the argument after the call's
// opening parenthesis (rcall(cmd, key) with the command name in a
// variable). Zero when neither is known.
func (in *interp) argPos(e *ast.FuncCallExpr, i int) Position {
	if i >= len(e.Args) {
		return Position{}
	}
	if s, ok := e.Args[i].(*ast.StringExpr); ok {
		if p, ok := in.pos.strs[s]; ok {
			return p
		}
	}
	var first string // the argument's first token, when it is a name
	if id, ok := e.Args[i].(*ast.IdentExpr); ok {
		first = id.Value
	}
	switch f := e.Func.(type) {
	case *ast.IdentExpr:
		return in.c.toks.argAfterName(e.Line(), f.Value, i, first)
	case *ast.AttrGetExpr:
		if k, ok := f.Key.(*ast.StringExpr); ok {
			if p, ok := in.pos.strs[k]; ok {
				return in.c.toks.argAfterName(p.Line, k.Value, i, first)
			}
		}
	}
	return Position{}
}
