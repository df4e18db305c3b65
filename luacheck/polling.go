package luacheck

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/slotlint/slotlint/internal/rediscmd"
)

// Polling loops (LUA101). A script runs atomically: while it loops, no
// other client runs a command (they get BUSY), so a loop whose every exit
// depends only on state the loop itself does not change takes the same
// path on every iteration. If it does not leave on the first one it never
// does. The analysis below is syntactic and conservative: anything it
// cannot see through (a call to a local function, a method on a table, a
// command named at run time) counts as "may change", so the loop is not
// reported.

// loopExit is one way out of a loop body: a break, return, error or assert,
// with the conditions that must hold to reach it.
type loopExit struct {
	guards []ast.Expr
}

// pollAnalysis holds what the loop body defines, mutates and writes.
type pollAnalysis struct {
	in *interp
	// defs are the body's assignments to each name: the expression and
	// which of its results (for "local ok, v = pcall(...)").
	defs map[string][]pollDef
	// mutated names are tables changed in place or handed to a function
	// that may change them.
	mutated map[string]bool
	// writes are the write commands the body runs, with their key
	// arguments; opaqueWrite: a write whose keys are not known.
	writes      []pollWrite
	opaqueWrite bool
	// opaque: the body calls something the analysis cannot see into, or
	// leaves the loop from inside an expression (x = assert(v)).
	opaque bool
	// stmtCalls are the calls made as statements.
	stmtCalls map[*ast.FuncCallExpr]bool
	// reads names the static reads the exits depend on, for the message.
	reads map[string]bool
	// flags are the assignments of a literal to a name the body does not
	// declare (more = false, found = true), with the conditions each is
	// made under: the first test of the loop sees the value from before
	// the loop, and later tests the literal once an assignment has run.
	flags map[string][][]ast.Expr
	depth int
}

type pollDef struct {
	expr ast.Expr
	idx  int
	// varying: a loop variable or a parameter, different on each pass.
	varying bool
}

type pollWrite struct {
	call *ast.FuncCallExpr
	keys []ast.Expr
}

// movingCommands return something different on each call even when
// nothing is written: the clock and the random reads.
var movingCommands = map[string]bool{
	"TIME": true, "RANDOMKEY": true, "SRANDMEMBER": true, "HRANDFIELD": true,
	"ZRANDMEMBER": true, "LASTSAVE": true,
}

// pureFuncs are library functions whose result depends only on their
// arguments.
var pureFuncs = map[string]bool{
	"tonumber": true, "tostring": true, "type": true, "select": true, "unpack": true,
	"ipairs": true, "pairs": true, "next": true, "rawget": true, "rawequal": true, "rawlen": true,
	"redis.sha1hex": true, "redis.status_reply": true, "redis.error_reply": true, "redis.log": true,
	"cjson.decode": true, "cjson.encode": true, "cmsgpack.pack": true, "cmsgpack.unpack": true,
	"table.concat": true, "table.getn": true,
}

// pureLibs are libraries whose every member is pure (math.random is not,
// and is listed in impureMembers).
var pureLibs = map[string]bool{"string": true, "math": true, "bit": true, "struct": true}

var impureMembers = map[string]bool{"math.random": true, "math.randomseed": true}

// stringMethods are the string library's functions, called as s:name().
var stringMethods = map[string]bool{
	"byte": true, "find": true, "format": true, "gmatch": true, "gsub": true, "len": true,
	"lower": true, "match": true, "rep": true, "reverse": true, "sub": true, "upper": true,
}

// collectExits lists the exits of a loop body: breaks not inside a nested
// loop, returns, and error/assert calls, none inside a nested function.
func collectExits(stmts []ast.Stmt) []loopExit {
	var out []loopExit
	type item struct {
		stmts  []ast.Stmt
		guards []ast.Expr
		nested bool
	}
	work := []item{{stmts: stmts}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		with := func(g ...ast.Expr) []ast.Expr {
			return append(append([]ast.Expr(nil), it.guards...), g...)
		}
		for _, s := range it.stmts {
			switch s := s.(type) {
			case *ast.BreakStmt:
				if !it.nested {
					out = append(out, loopExit{guards: it.guards})
				}
			case *ast.ReturnStmt:
				out = append(out, loopExit{guards: it.guards})
			case *ast.FuncCallStmt:
				if call, ok := s.Expr.(*ast.FuncCallExpr); ok {
					if id, ok := call.Func.(*ast.IdentExpr); ok && call.Receiver == nil {
						switch id.Value {
						case "error":
							out = append(out, loopExit{guards: it.guards})
						case "assert":
							out = append(out, loopExit{guards: with(call.Args...)})
						}
					}
				}
			case *ast.IfStmt:
				if alwaysExits(s.Then, it.nested) && alwaysExits(s.Else, it.nested) {
					// Both ways leave: whatever the condition, the loop
					// ends here.
					out = append(out, loopExit{guards: it.guards})
					continue
				}
				work = append(work, item{s.Then, with(s.Condition), it.nested}, item{s.Else, with(s.Condition), it.nested})
			case *ast.DoBlockStmt:
				work = append(work, item{s.Stmts, it.guards, it.nested})
			case *ast.WhileStmt:
				work = append(work, item{s.Stmts, with(s.Condition), true})
			case *ast.RepeatStmt:
				work = append(work, item{s.Stmts, with(s.Condition), true})
			case *ast.NumberForStmt:
				work = append(work, item{s.Stmts, with(s.Init, s.Limit, s.Step), true})
			case *ast.GenericForStmt:
				work = append(work, item{s.Stmts, with(s.Exprs...), true})
			}
		}
	}
	return out
}

// alwaysExits: the statements end by leaving the loop on every path.
func alwaysExits(stmts []ast.Stmt, nested bool) bool {
	for i := 0; i < 64 && len(stmts) > 0; i++ {
		switch s := stmts[len(stmts)-1].(type) {
		case *ast.BreakStmt:
			return !nested
		case *ast.ReturnStmt:
			return true
		case *ast.FuncCallStmt:
			call, ok := s.Expr.(*ast.FuncCallExpr)
			if !ok {
				return false
			}
			id, ok := call.Func.(*ast.IdentExpr)
			return ok && call.Receiver == nil && id.Value == "error"
		case *ast.DoBlockStmt:
			stmts = s.Stmts
		case *ast.IfStmt:
			return len(s.Else) > 0 && alwaysExits(s.Then, nested) && alwaysExits(s.Else, nested)
		default:
			return false
		}
	}
	return false
}

// pollingLoop reports whether a while or repeat loop can never end once it
// has not ended on its first pass, and names the reads its exits depend on.
// cond is the loop's condition (nil when it is always true).
func (in *interp) pollingLoop(cond ast.Expr, body []ast.Stmt) (bool, []string) {
	p := &pollAnalysis{in: in, defs: map[string][]pollDef{}, mutated: map[string]bool{}, reads: map[string]bool{},
		stmtCalls: map[*ast.FuncCallExpr]bool{}}
	p.scan(body)
	if p.opaque {
		return false, nil
	}
	exits := collectExits(body)
	var conds []ast.Expr
	if cond != nil {
		conds = append(conds, cond)
	}
	for _, e := range exits {
		if len(e.guards) == 0 {
			// An exit nothing guards: the loop ends on its first pass.
			return false, nil
		}
		conds = append(conds, e.guards...)
	}
	if len(conds) == 0 {
		return false, nil
	}
	for _, c := range conds {
		if !p.static(c, map[string]bool{}) {
			return false, nil
		}
	}
	names := make([]string, 0, len(p.reads))
	for r := range p.reads {
		names = append(names, r)
	}
	sort.Strings(names)
	return true, names
}

// scan records the body's definitions, in-place changes, writes and
// calls the analysis cannot follow.
func (p *pollAnalysis) scan(body []ast.Stmt) {
	p.flagAssignments(body, nil, 0)
	inspect(stmtNodes(body), func(n any) bool {
		switch n := n.(type) {
		case *ast.LocalAssignStmt:
			p.define(n.Names, n.Exprs)
		case *ast.AssignStmt:
			var names []string
			for _, l := range n.Lhs {
				switch l := l.(type) {
				case *ast.IdentExpr:
					names = append(names, l.Value)
				case *ast.AttrGetExpr:
					names = append(names, "")
					if root := rootName(l); root != "" {
						p.mutated[root] = true
					}
				default:
					names = append(names, "")
				}
			}
			p.define(names, n.Rhs)
		case *ast.NumberForStmt:
			p.defs[n.Name] = append(p.defs[n.Name], pollDef{varying: true})
		case *ast.GenericForStmt:
			for _, name := range n.Names {
				p.defs[name] = append(p.defs[name], pollDef{varying: true})
			}
		case *ast.FunctionExpr:
			for _, name := range n.ParList.Names {
				p.defs[name] = append(p.defs[name], pollDef{varying: true})
			}
		case *ast.FuncDefStmt:
			if n.Name != nil {
				if id, ok := n.Name.Func.(*ast.IdentExpr); ok {
					p.defs[id.Value] = append(p.defs[id.Value], pollDef{varying: true})
				}
			}
		case *ast.FuncCallStmt:
			if c, ok := n.Expr.(*ast.FuncCallExpr); ok {
				p.stmtCalls[c] = true
			}
		case *ast.FuncCallExpr:
			p.call(n)
		}
		return true
	})
}

func (p *pollAnalysis) define(names []string, exprs []ast.Expr) {
	for i, name := range names {
		if name == "" {
			continue
		}
		var d pollDef
		switch {
		case i < len(exprs):
			d = pollDef{expr: exprs[i]}
		case len(exprs) > 0:
			// Extra names take the further results of a last call.
			d = pollDef{expr: exprs[len(exprs)-1], idx: i - len(exprs) + 1}
		default:
			d = pollDef{expr: &ast.NilExpr{}}
		}
		p.defs[name] = append(p.defs[name], d)
	}
}

// varyingGuard stands for the condition of a nested loop's passes, which
// static never takes for the same on every pass.
var varyingGuard ast.Expr = &ast.FunctionExpr{}

// flagAssignments records in p.flags the literal assignments of stmts
// to names they do not declare, with the conditions they are made under
// (guards).
func (p *pollAnalysis) flagAssignments(stmts []ast.Stmt, guards []ast.Expr, depth int) {
	if depth > 64 {
		return
	}
	with := func(g ...ast.Expr) []ast.Expr { return append(slices.Clip(guards), g...) }
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.AssignStmt:
			for i, l := range st.Lhs {
				if id, ok := l.(*ast.IdentExpr); ok && i < len(st.Rhs) && isLiteral(st.Rhs[i]) {
					if p.flags == nil {
						p.flags = map[string][][]ast.Expr{}
					}
					p.flags[id.Value] = append(p.flags[id.Value], guards)
				}
			}
		case *ast.IfStmt:
			p.flagAssignments(st.Then, with(st.Condition), depth+1)
			p.flagAssignments(st.Else, with(st.Condition), depth+1)
		case *ast.DoBlockStmt:
			p.flagAssignments(st.Stmts, guards, depth+1)
		case *ast.WhileStmt:
			p.flagAssignments(st.Stmts, with(st.Condition), depth+1)
		case *ast.RepeatStmt:
			p.flagAssignments(st.Stmts, with(st.Condition), depth+1)
		case *ast.NumberForStmt:
			p.flagAssignments(st.Stmts, with(varyingGuard), depth+1)
		case *ast.GenericForStmt:
			p.flagAssignments(st.Stmts, with(varyingGuard), depth+1)
		}
	}
}

// isLiteral: e is nil, true, false, a number or a string written out.
func isLiteral(e ast.Expr) bool {
	switch e.(type) {
	case *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr, *ast.NumberExpr, *ast.StringExpr:
		return true
	}
	return false
}

// rootName is the variable a chain of indexing starts from: t in t.a[1].
func rootName(e ast.Expr) string {
	for i := 0; i < 64; i++ {
		switch x := e.(type) {
		case *ast.IdentExpr:
			return x.Value
		case *ast.AttrGetExpr:
			e = x.Object
		default:
			return ""
		}
	}
	return ""
}

// funcName is "name" or "lib.member" for a call of a global function, ""
// otherwise (locals shadowing a library name included).
func (p *pollAnalysis) funcName(e ast.Expr) string {
	name := p.in.globalName(e)
	if root, _, _ := strings.Cut(name, "."); p.defs[root] != nil {
		return "" // the body assigns the name (or the library's) itself
	}
	return name
}

// call classifies one call of the body: a command (a write is recorded), a
// pure library function, a table function that changes its first
// argument, or something opaque.
func (p *pollAnalysis) call(c *ast.FuncCallExpr) {
	if c.Receiver != nil {
		if !stringMethods[c.Method] {
			p.opaque = true
		}
		return
	}
	name := p.funcName(c.Func)
	switch {
	case name == "redis.call" || name == "redis.pcall":
		p.command(c, c.Args)
	case name == "pcall":
		if len(c.Args) > 0 {
			if f := p.funcName(c.Args[0]); f == "redis.call" || f == "redis.pcall" {
				p.command(c, c.Args[1:])
				return
			}
		}
		p.opaque = true
	case name == "table.insert" || name == "table.remove" || name == "table.sort" || name == "rawset" || name == "setmetatable":
		if len(c.Args) > 0 {
			if root := rootName(c.Args[0]); root != "" {
				p.mutated[root] = true
			}
		}
	case name == "error" || name == "assert":
		if !p.stmtCalls[c] {
			p.opaque = true
		}
	case pureFuncs[name]:
	case impureMembers[name]:
		// math.random: its result moves, but it changes no state.
	default:
		if lib, _, ok := strings.Cut(name, "."); ok && pureLibs[lib] {
			return
		}
		p.opaque = true
	}
}

// command records a write command's keys; a command named at run time is
// opaque.
func (p *pollAnalysis) command(c *ast.FuncCallExpr, args []ast.Expr) {
	cmd, argv := resolveExprs(args)
	if cmd == nil {
		p.opaque = true
		return
	}
	if !cmd.Has(rediscmd.FlagWrite) {
		return
	}
	refs, complete := cmd.Keys(argv)
	if !complete {
		p.opaqueWrite = true
	}
	w := pollWrite{call: c}
	for _, r := range refs {
		if r.Index < len(args) {
			w.keys = append(w.keys, args[r.Index])
		}
	}
	p.writes = append(p.writes, w)
}

// resolveExprs resolves a command from its argument expressions: the
// literal ones are known.
func resolveExprs(args []ast.Expr) (*rediscmd.Command, []rediscmd.Arg) {
	if len(args) == 0 {
		return nil, nil
	}
	if _, ok := args[0].(*ast.StringExpr); !ok {
		return nil, nil
	}
	argv := make([]rediscmd.Arg, 0, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case *ast.StringExpr:
			argv = append(argv, rediscmd.Arg{Text: a.Value, Known: true})
		case *ast.NumberExpr:
			argv = append(argv, rediscmd.Arg{Text: a.Value, Known: true})
		case *ast.Comma3Expr:
			return rediscmd.Resolve(argv), argv
		case *ast.FuncCallExpr:
			if i == len(args)-1 {
				// A call in the last place (unpack(t)) may stand for
				// several arguments.
				return rediscmd.Resolve(argv), argv
			}
			argv = append(argv, rediscmd.Arg{})
		default:
			argv = append(argv, rediscmd.Arg{})
		}
	}
	return rediscmd.Resolve(argv), argv
}

// static reports whether e has the same value on every pass of the loop.
// visiting guards against definitions that refer to themselves (x = x + 1).
func (p *pollAnalysis) static(e ast.Expr, visiting map[string]bool) bool {
	p.depth++
	defer func() { p.depth-- }()
	if e == nil {
		return true
	}
	if p.depth > 200 {
		return false
	}
	switch e := e.(type) {
	case *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr, *ast.NumberExpr, *ast.StringExpr:
		return true
	case *ast.Comma3Expr:
		return true
	case *ast.IdentExpr:
		return p.staticName(e.Value, visiting)
	case *ast.AttrGetExpr:
		return p.static(e.Object, visiting) && p.static(e.Key, visiting)
	case *ast.LogicalOpExpr:
		return p.static(e.Lhs, visiting) && p.static(e.Rhs, visiting)
	case *ast.RelationalOpExpr:
		return p.static(e.Lhs, visiting) && p.static(e.Rhs, visiting)
	case *ast.ArithmeticOpExpr:
		return p.static(e.Lhs, visiting) && p.static(e.Rhs, visiting)
	case *ast.StringConcatOpExpr:
		return p.static(e.Lhs, visiting) && p.static(e.Rhs, visiting)
	case *ast.UnaryMinusOpExpr:
		return p.static(e.Expr, visiting)
	case *ast.UnaryNotOpExpr:
		return p.static(e.Expr, visiting)
	case *ast.UnaryLenOpExpr:
		return p.static(e.Expr, visiting)
	case *ast.FuncCallExpr:
		return p.staticCall(e, 0, visiting)
	}
	// Table constructors and function expressions make a new value each
	// pass.
	return false
}

func (p *pollAnalysis) staticName(name string, visiting map[string]bool) bool {
	if p.mutated[name] || visiting[name] {
		return false
	}
	// A flag the body sets on every pass (more = false), or under a
	// condition that changes from pass to pass (if i > 10 then done =
	// true), can end the loop on a later pass. One set only under
	// conditions that are the same on every pass is set on the first
	// pass or never.
	for _, guards := range p.flags[name] {
		if len(guards) == 0 {
			return false
		}
		for _, g := range guards {
			if !p.static(g, visiting) {
				return false
			}
		}
	}
	defs, inBody := p.defs[name]
	if !inBody {
		// Defined before the loop: it changes only if a closure writes it,
		// and the body calls no closure (p.opaque would be set).
		return !p.in.writtenInClosure[name]
	}
	visiting[name] = true
	defer delete(visiting, name)
	for _, d := range defs {
		if d.varying {
			return false
		}
		if call, ok := d.expr.(*ast.FuncCallExpr); ok {
			if !p.staticCall(call, d.idx, visiting) {
				return false
			}
			continue
		}
		if d.idx > 0 || !p.static(d.expr, visiting) {
			return false
		}
	}
	return true
}

// staticCall: result idx of a call is the same on every pass.
func (p *pollAnalysis) staticCall(c *ast.FuncCallExpr, idx int, visiting map[string]bool) bool {
	if c.Receiver != nil {
		if !stringMethods[c.Method] || !p.static(c.Receiver, visiting) {
			return false
		}
		return p.staticArgs(c.Args, visiting)
	}
	name := p.funcName(c.Func)
	switch {
	case name == "redis.call" || name == "redis.pcall":
		return idx == 0 && p.staticCommand(c, c.Args, false, visiting)
	case name == "pcall":
		if len(c.Args) == 0 {
			return false
		}
		if f := p.funcName(c.Args[0]); f != "redis.call" && f != "redis.pcall" {
			return false
		}
		// Result 0 is whether the command failed, result 1 its reply.
		return idx <= 1 && p.staticCommand(c, c.Args[1:], idx == 0, visiting)
	case impureMembers[name]:
		return false
	case pureFuncs[name]:
	default:
		lib, _, ok := strings.Cut(name, ".")
		if !ok || !pureLibs[lib] {
			return false
		}
	}
	return p.staticArgs(c.Args, visiting)
}

func (p *pollAnalysis) staticArgs(args []ast.Expr, visiting map[string]bool) bool {
	for _, a := range args {
		if !p.static(a, visiting) {
			return false
		}
	}
	return true
}

// staticCommand: a command whose reply (or, with status, whose success)
// cannot change during the loop. Reads are static when nothing the loop
// writes may be one of their keys (for keyless reads such as INFO, when
// the loop writes nothing). Writes change their own keys, so their reply
// moves; whether they fail does not, unless another write changes their
// keys.
func (p *pollAnalysis) staticCommand(c *ast.FuncCallExpr, args []ast.Expr, status bool, visiting map[string]bool) bool {
	if !p.staticArgs(args, visiting) {
		return false
	}
	cmd, argv := resolveExprs(args)
	if cmd == nil || movingCommands[cmd.Name] {
		return false
	}
	if cmd.Name == "INFO" && !staticInfo(argv) {
		return false
	}
	write := cmd.Has(rediscmd.FlagWrite)
	if write && !status {
		return false
	}
	refs, complete := cmd.Keys(argv)
	if !complete || p.opaqueWrite {
		return false
	}
	var keys []ast.Expr
	for _, r := range refs {
		if r.Index < len(args) {
			keys = append(keys, args[r.Index])
		}
	}
	for _, w := range p.writes {
		if w.call == c {
			continue
		}
		if len(keys) == 0 {
			return false
		}
		for _, wk := range w.keys {
			for _, k := range keys {
				if mayAlias(wk, k) {
					return false
				}
			}
		}
	}
	label := cmd.Name
	if len(keys) > 0 {
		label += " " + exprText(keys[0])
	}
	p.reads[label] = true
	return true
}

// staticInfoSections are the INFO sections that stay the same while a
// script runs and writes nothing. Measured on Redis 7.0: memory (Lua's
// own), stats, cpu, commandstats and latencystats move with every call.
var staticInfoSections = map[string]bool{
	"replication": true, "keyspace": true, "persistence": true, "clients": true,
	"cluster": true, "modules": true, "errorstats": true,
}

// staticInfo: INFO is asked only for sections that do not move.
func staticInfo(argv []rediscmd.Arg) bool {
	if len(argv) < 2 {
		return false
	}
	for _, a := range argv[1:] {
		if !a.Known || !staticInfoSections[strings.ToLower(a.Text)] {
			return false
		}
	}
	return true
}

// mayAlias: two key expressions may name the same key at run time. Only
// two different literals, or KEYS[i] and KEYS[j] with i != j, are taken to
// be different keys.
func mayAlias(a, b ast.Expr) bool {
	ta, tb := exprText(a), exprText(b)
	if ta == "" || tb == "" {
		return true
	}
	if ta == tb {
		return true
	}
	_, litA := a.(*ast.StringExpr)
	_, litB := b.(*ast.StringExpr)
	if litA && litB {
		return false
	}
	return !(strings.HasPrefix(ta, "KEYS[") && strings.HasPrefix(tb, "KEYS[") && isKeysLiteral(a) && isKeysLiteral(b))
}

func isKeysLiteral(e ast.Expr) bool {
	g, ok := e.(*ast.AttrGetExpr)
	if !ok {
		return false
	}
	obj, ok1 := g.Object.(*ast.IdentExpr)
	_, ok2 := g.Key.(*ast.NumberExpr)
	return ok1 && ok2 && obj.Value == "KEYS"
}

// exprText writes simple expressions back as source, for messages and to
// compare keys; "" when the expression is not simple.
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.IdentExpr:
		return e.Value
	case *ast.StringExpr:
		return strconv.Quote(e.Value)
	case *ast.NumberExpr:
		return e.Value
	case *ast.AttrGetExpr:
		obj := exprText(e.Object)
		if obj == "" {
			return ""
		}
		if k, ok := e.Key.(*ast.StringExpr); ok && isLuaName(k.Value) {
			return obj + "." + k.Value
		}
		k := exprText(e.Key)
		if k == "" {
			return ""
		}
		return obj + "[" + k + "]"
	case *ast.StringConcatOpExpr:
		l, r := exprText(e.Lhs), exprText(e.Rhs)
		if l == "" || r == "" {
			return ""
		}
		return l + " .. " + r
	}
	return ""
}

func isLuaName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}
