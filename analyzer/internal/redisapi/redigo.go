package redisapi

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/internal/clientpaths"
	"github.com/slotlint/slotlint/internal/rediscmd"
)

// Redigo is the import path of redigo's client package.
const Redigo = clientpaths.Redigo

var redigoPaths = clientpaths.RedigoPaths

// redigoCollector is the redigo front end's state for one package. redigo
// sends command lines: Do("MGET", k1, k2), so keys are found with Redis's
// own key specs, and a transaction is MULTI ... EXEC sent on one
// connection.
type redigoCollector struct {
	pass *analysis.Pass
	x    *keyexpr.Extractor
	res  *Result
	// watch and multi are each connection's WATCH block and open MULTI.
	watch map[*types.Var]*redigoTx
	multi map[*types.Var]*redigoTx
	// globals are the package's variables' initial values, indexed when a
	// script variable is first followed.
	globals map[*types.Var]ast.Expr
}

// redigoTx is a transaction being collected: the function it is in, so a
// connection held in a field does not carry it into another function.
type redigoTx struct {
	tx *Tx
	fn ast.Node
}

// argItem is one argument of a command line as sent: its expression, nil
// when only its presence is known (a map value spread by AddFlat), and the
// loop that adds it once per iteration.
type argItem struct {
	expr ast.Expr
	loop ast.Node
}

// collectRedigo reads Conn.Do/Send/DoContext/DoWithTimeout, the package
// functions DoContext and DoWithTimeout, and Script calls.
func collectRedigo(pass *analysis.Pass, x *keyexpr.Extractor, res *Result) {
	c := &redigoCollector{pass: pass, x: x, res: res, watch: map[*types.Var]*redigoTx{}, multi: map[*types.Var]*redigoTx{}}
	for cur := range res.ins.Root().Preorder((*ast.CallExpr)(nil)) {
		c.call(cur.Node().(*ast.CallExpr), astutil.EnclosingFunc(cur))
	}
	for _, open := range c.multi {
		c.closeTx(open, token.NoPos)
	}
}

// redigoFunc returns the redigo function or method a call invokes.
func (c *redigoCollector) redigoFunc(call *ast.CallExpr) (*types.Func, string, bool) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != Redigo {
		return nil, "", false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return fn, "", true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return fn, n.Obj().Name(), true
	}
	return fn, "", true
}

// A command call: where its connection and command name are.
type commandShape struct{ conn, cmd int }

// connMethods are the Conn (and ConnWithContext, ConnWithTimeout) methods
// that send a command; helpers are the package functions that do.
var (
	connMethods = map[string]commandShape{
		"Do": {-1, 0}, "Send": {-1, 0}, "DoContext": {-1, 1}, "DoWithTimeout": {-1, 1},
	}
	connHelpers = map[string]commandShape{"DoContext": {0, 2}, "DoWithTimeout": {0, 2}}
	// scriptSends are the Script methods that run it, with the command
	// they send first and where the connection is.
	scriptSends = map[string]struct {
		cmd  string
		conn int
	}{
		"Do": {"EVALSHA", 0}, "DoContext": {"EVALSHA", 1}, "SendHash": {"EVALSHA", 0}, "Send": {"EVAL", 0},
	}
)

func (c *redigoCollector) call(call *ast.CallExpr, fn ast.Node) {
	f, recv, ok := c.redigoFunc(call)
	if !ok {
		c.handOff(call, fn)
		return
	}
	if recv == "Script" {
		sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if s, ok := scriptSends[f.Name()]; ok && isSel && len(call.Args) > s.conn {
			c.script(call, f.Name(), s.cmd, sel.X, call.Args[s.conn+1:], fn)
		}
		return
	}
	var shape commandShape
	switch {
	case recv == "":
		shape, ok = connHelpers[f.Name()]
	case strings.HasPrefix(recv, "Conn"): // Conn, ConnWithContext, ConnWithTimeout
		shape, ok = connMethods[f.Name()]
	default:
		ok = false
	}
	if !ok || len(call.Args) <= shape.cmd {
		return
	}
	var conn ast.Expr
	if shape.conn >= 0 {
		conn = call.Args[shape.conn]
	} else if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel {
		conn = sel.X
	}
	items, complete := c.spread(call.Args[shape.cmd+1:], call.Ellipsis.IsValid())
	c.command(call, f.Name(), call.Args[shape.cmd], items, complete, conn, fn)
}

// command records one command line sent on conn.
func (c *redigoCollector) command(call *ast.CallExpr, method string, name ast.Expr, items []argItem, complete bool, conn ast.Expr, fn ast.Node) {
	tv := c.pass.TypesInfo.Types[name]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	cmdName := strings.ToUpper(constant.StringVal(tv.Value))
	v := c.connVar(conn)
	switch cmdName {
	case "MULTI":
		c.openMulti(call, v, fn)
		return
	case "EXEC", "DISCARD":
		if open := c.multi[v]; v != nil && open != nil && open.fn == fn {
			c.closeTx(open, call.Pos())
		}
		delete(c.multi, v)
		delete(c.watch, v)
		return
	case "UNWATCH":
		delete(c.watch, v)
		return
	}
	all := append([]argItem{{expr: name}}, items...)
	rec := c.fromItems(call, method, all, complete)
	if rec == nil {
		return
	}
	if cmdName == "WATCH" {
		c.addWatch(call, v, rec, fn)
		return
	}
	rec.On = conn
	c.add(rec, v, fn)
}

// handOff notes a call that passes a connection inside MULTI to a function
// of the user's code: what it sends there is queued in the transaction.
func (c *redigoCollector) handOff(call *ast.CallExpr, fn ast.Node) {
	for i, a := range call.Args {
		v := c.connVar(a)
		if open := c.multi[v]; v != nil && open != nil && open.fn == fn {
			c.res.handOffs = append(c.res.handOffs, handOff{call: call, arg: i, tx: open.tx, client: RedigoClient})
		}
	}
}

// add records a call, queued in its connection's open MULTI if any.
func (c *redigoCollector) add(rec *Call, v *types.Var, fn ast.Node) {
	if open := c.multi[v]; v != nil && open != nil && open.fn == fn {
		rec.Tx = open.tx
		open.tx.Calls = append(open.tx.Calls, rec)
	}
	c.res.Calls = append(c.res.Calls, rec)
}

// addWatch adds WATCH keys to the connection's coming transaction: the
// keys WATCH sends are checked with the transaction's, as go-redis's Watch.
func (c *redigoCollector) addWatch(call *ast.CallExpr, v *types.Var, rec *Call, fn ast.Node) {
	if v == nil {
		c.res.Calls = append(c.res.Calls, rec)
		return
	}
	w := c.watch[v]
	if w == nil || w.fn != fn {
		w = &redigoTx{tx: &Tx{Node: call, Method: "WATCH", Watch: true, WatchComplete: true}, fn: fn}
		c.res.Txs = append(c.res.Txs, w.tx)
		c.watch[v] = w
	}
	w.tx.Watched = append(w.tx.Watched, rec.Keys...)
	w.tx.WatchComplete = w.tx.WatchComplete && rec.Complete
}

func (c *redigoCollector) openMulti(call *ast.CallExpr, v *types.Var, fn ast.Node) {
	if v == nil {
		return
	}
	open := c.watch[v]
	delete(c.watch, v)
	if open == nil || open.fn != fn {
		open = &redigoTx{tx: &Tx{Node: call, Method: "MULTI", WatchComplete: true}, fn: fn}
		c.res.Txs = append(c.res.Txs, open.tx)
	}
	open.tx.body[0] = call.End()
	c.multi[v] = open
}

// closeTx marks the commands of a transaction that a loop between MULTI
// and EXEC (or the function's end) repeats.
func (c *redigoCollector) closeTx(open *redigoTx, end token.Pos) {
	if end == token.NoPos && open.fn != nil {
		end = open.fn.End()
	}
	open.tx.body[1] = end
	for _, rec := range open.tx.Calls {
		rec.Loop = c.x.LoopOf(rec.Node.Pos(), open.tx.body[0], end)
	}
}

// connVar is the variable or field holding a connection.
func (c *redigoCollector) connVar(e ast.Expr) *types.Var {
	if e == nil {
		return nil
	}
	if v, ok := c.x.Var(e); ok {
		return v
	}
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
		if v, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok {
			return v
		}
	}
	return nil
}

// fromItems resolves a command line's keys with Redis's key specs.
func (c *redigoCollector) fromItems(call *ast.CallExpr, method string, items []argItem, complete bool) *Call {
	argv := make([]rediscmd.Arg, len(items))
	firstLoop := -1
	for i, it := range items {
		argv[i] = c.arg(it.expr)
		if it.loop != nil && firstLoop < 0 {
			firstLoop = i
		}
	}
	cmd := rediscmd.Resolve(argv)
	if cmd == nil {
		return nil
	}
	refs, known := cmd.Keys(argv)
	if firstLoop >= 0 && !(known && complete && keysToEnd(refs, firstLoop, len(argv))) {
		// Items a loop adds make positions after them unknown, unless
		// every argument from there on is a key (MGET, DEL ... keys).
		var before []rediscmd.KeyRef
		for _, r := range refs {
			if r.Index < firstLoop {
				before = append(before, r)
			}
		}
		refs, known = before, false
	}
	if !complete {
		// Arguments that cannot be listed: positions counted from the
		// end are unknown, so no key is trusted.
		if !mayTakeKeys(cmd) {
			return nil
		}
		refs, known = nil, false
	}
	rec := &Call{Node: call, Method: method, Command: strings.ReplaceAll(cmd.Name, "|", " "), Complete: known,
		Script: scriptCommands[cmd.Name]}
	rec.MultiKey = !known || len(refs) > 1 || rec.Script
	for _, r := range refs {
		rec.MultiKey = rec.MultiKey || items[r.Index].loop != nil
	}
	if rec.Script && len(items) > 1 {
		rec.Source = items[1].expr
	}
	for _, r := range refs {
		it := items[r.Index]
		if it.expr == nil {
			rec.Complete = false
			continue
		}
		rec.Keys = append(rec.Keys, keyexpr.Elem{Key: c.x.Key(it.expr), Expr: it.expr, Loop: it.loop})
	}
	if rec.Script && rec.Complete && len(refs) > 0 {
		rec.Argv, rec.ArgvKnown = exprsOf(items[refs[len(refs)-1].Index+1:])
	} else if rec.Script && rec.Complete && len(refs) == 0 && len(items) >= 3 {
		rec.Argv, rec.ArgvKnown = exprsOf(items[3:])
	}
	if len(rec.Keys) == 0 && !rec.Script && rec.Complete {
		return nil
	}
	rec.Client = RedigoClient
	if complete && firstLoop < 0 {
		after := make([]ast.Expr, len(items)-1)
		for i, it := range items[1:] {
			after[i] = it.expr
		}
		rec.readCommandLine(c.pass, after)
	}
	return rec
}

// keysToEnd reports whether every argument from index from to the end is
// a key, so a loop there adds only keys.
func keysToEnd(refs []rediscmd.KeyRef, from, n int) bool {
	want := from
	for _, r := range refs {
		if r.Index < from {
			continue
		}
		if r.Index != want {
			return false
		}
		want++
	}
	return want == n
}

// mayTakeKeys reports whether a command can take several keys, so an
// argument list that cannot be followed hides keys that must share a slot.
func mayTakeKeys(cmd *rediscmd.Command) bool {
	specs := 0
	for _, spec := range cmd.KeySpecs {
		if spec.Flags&rediscmd.KeyNotKey != 0 {
			continue
		}
		specs++
		if spec.Find != rediscmd.FindRange || spec.LastKey != 0 {
			return true
		}
	}
	return specs > 1 || scriptCommands[cmd.Name]
}

// exprsOf returns the items' expressions when each is known once.
func exprsOf(items []argItem) ([]ast.Expr, bool) {
	out := make([]ast.Expr, 0, len(items))
	for _, it := range items {
		if it.expr == nil || it.loop != nil {
			return nil, false
		}
		out = append(out, it.expr)
	}
	return out, true
}

// arg is an argument's text when it is a constant.
func (c *redigoCollector) arg(e ast.Expr) rediscmd.Arg {
	if e == nil {
		return rediscmd.Arg{}
	}
	tv := c.pass.TypesInfo.Types[e]
	if tv.Value == nil {
		return rediscmd.Arg{}
	}
	switch tv.Value.Kind() {
	case constant.String:
		return rediscmd.Arg{Text: constant.StringVal(tv.Value), Known: true}
	case constant.Int:
		return rediscmd.Arg{Text: tv.Value.ExactString(), Known: true}
	}
	return rediscmd.Arg{}
}

// spread lists the arguments after the command name. complete is false
// when the list goes on with arguments that cannot be known.
func (c *redigoCollector) spread(args []ast.Expr, ellipsis bool) ([]argItem, bool) {
	if !ellipsis {
		items := make([]argItem, len(args))
		for i, a := range args {
			items[i] = argItem{expr: a}
		}
		return items, true
	}
	if len(args) != 1 {
		return nil, false
	}
	return c.list(args[0], 0)
}

// list resolves a []interface{} or redis.Args value: a literal, an
// Args{}.Add(...).AddFlat(...) chain, append, or a local variable holding one.
func (c *redigoCollector) list(e ast.Expr, depth int) ([]argItem, bool) {
	if depth > 8 {
		return nil, false
	}
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			return nil, true
		}
		if o := c.x.Origin(e); o != e {
			return c.list(o, depth+1)
		}
	case *ast.CompositeLit:
		items := make([]argItem, 0, len(e.Elts))
		for _, el := range e.Elts {
			if _, ok := el.(*ast.KeyValueExpr); ok {
				return nil, false
			}
			items = append(items, argItem{expr: el})
		}
		return items, true
	case *ast.CallExpr:
		if f, recv, ok := c.redigoFunc(e); ok && recv == "Args" {
			sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil, false
			}
			base, complete := c.list(sel.X, depth+1)
			if !complete {
				return base, false
			}
			switch f.Name() {
			case "Add":
				more, ok := c.spread(e.Args, e.Ellipsis.IsValid())
				return append(base, more...), ok
			case "AddFlat":
				if len(e.Args) != 1 {
					return base, false
				}
				more, ok := c.flat(e.Args[0])
				return append(base, more...), ok
			}
			return base, false
		}
		if tv, ok := c.pass.TypesInfo.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return c.list(e.Args[0], depth+1) // redis.Args(x)
		}
	}
	// Slices built with append, or their elements in a loop.
	elems, complete := c.x.List(e)
	return itemsOf(elems), complete
}

func itemsOf(elems []keyexpr.Elem) []argItem {
	items := make([]argItem, len(elems))
	for i, el := range elems {
		items[i] = argItem{expr: el.Expr, loop: el.Loop}
	}
	return items
}

// flat lists what AddFlat appends for v: a slice's elements, a map's keys
// and values, or v itself. Structs are not followed.
func (c *redigoCollector) flat(v ast.Expr) ([]argItem, bool) {
	t := c.pass.TypesInfo.TypeOf(v)
	if t == nil {
		return nil, false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return []argItem{{expr: v}}, true // []byte is one argument
		}
		elems, complete := c.x.List(v)
		return itemsOf(elems), complete
	case *types.Map:
		lit, ok := c.x.Composite(v)
		if !ok {
			return nil, false
		}
		keys, complete := c.x.MapKeys(lit)
		var items []argItem
		for _, k := range keys {
			items = append(items, argItem{expr: k.Expr}, argItem{})
		}
		return items, complete
	case *types.Struct, *types.Pointer:
		return nil, false
	}
	return []argItem{{expr: v}}, true
}

// script records a Script call: the key count given to NewScript says
// how many of keysAndArgs are keys.
func (c *redigoCollector) script(call *ast.CallExpr, method, cmd string, s ast.Expr, args []ast.Expr, fn ast.Node) {
	rec := &Call{Node: call, Method: "Script." + method, Command: cmd, MultiKey: true, Script: true, ScriptValue: true, Client: RedigoClient}
	items, complete := c.spread(args, call.Ellipsis.IsValid())
	n, src, ok := c.newScript(s)
	if ok {
		rec.Source = src
		if n < 0 && len(items) > 0 && items[0].loop == nil {
			// The count is the first of keysAndArgs.
			if count, known := astutil.ConstInt(c.pass.TypesInfo, items[0].expr); known {
				n, items = count, items[1:]
			}
		}
	}
	if ok && n >= 0 && (n <= len(items) || !complete) {
		rec.Complete = n <= len(items)
		for i := 0; i < n && i < len(items); i++ {
			it := items[i]
			if it.expr == nil || it.loop != nil {
				rec.Complete = false
				break
			}
			rec.Keys = append(rec.Keys, keyexpr.Elem{Key: c.x.Key(it.expr), Expr: it.expr})
		}
		if rec.Complete && complete {
			rec.Argv, rec.ArgvKnown = exprsOf(items[n:])
		}
	}
	c.add(rec, c.connVar(s2conn(call, method)), fn)
}

// s2conn is the connection argument of a Script call.
func s2conn(call *ast.CallExpr, method string) ast.Expr {
	i := scriptSends[method].conn
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// newScript follows a *redis.Script to the NewScript call that made it:
// the key count when constant (-1 when given at each call) and the text.
func (c *redigoCollector) newScript(e ast.Expr) (int, ast.Expr, bool) {
	for range 4 {
		e = ast.Unparen(e)
		if call, ok := e.(*ast.CallExpr); ok {
			f, recv, ok := c.redigoFunc(call)
			if !ok || recv != "" || f.Name() != "NewScript" || len(call.Args) != 2 {
				return 0, nil, false
			}
			n, ok := astutil.ConstInt(c.pass.TypesInfo, call.Args[0])
			if !ok {
				return 0, nil, false
			}
			return n, call.Args[1], true
		}
		if v, isField := c.x.FieldValue(e); isField {
			if e = v; e == nil {
				return 0, nil, false
			}
			continue
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return 0, nil, false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok {
			return 0, nil, false
		}
		if v.Parent() == c.pass.Pkg.Scope() {
			init, ok := c.global(v)
			if !ok {
				return 0, nil, false
			}
			e = init
			continue
		}
		o := c.x.Origin(id)
		if o == ast.Expr(id) {
			return 0, nil, false
		}
		e = o
	}
	return 0, nil, false
}

// global is a package variable's initial value when nothing assigns it
// later in the package's own declarations (assignments in functions are
// not looked for: script variables are set once).
func (c *redigoCollector) global(v *types.Var) (ast.Expr, bool) {
	if c.globals == nil {
		c.globals = packageVarValues(c.pass)
	}
	e, ok := c.globals[v]
	return e, ok
}
