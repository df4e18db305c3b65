package redisapi

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/internal/clientpaths"
	"github.com/slotlint/slotlint/internal/rediscmd"
)

// Rueidis and Valkey are the import paths of rueidis and valkey-go: one
// client generated from the same sources, with the same command builder.
const (
	Rueidis = clientpaths.Rueidis
	Valkey  = clientpaths.Valkey
)

// RueidisCompat is rueidis's adapter with go-redis's API: the go-redis
// front end reads it (TestTableMatchesRueidisCompat checks the table).
// valkey-go v1.0.79 publishes no such adapter.
const RueidisCompat = clientpaths.RueidisCompat

// rueidisPaths are the packages the rueidis front end reads.
var rueidisPaths = clientpaths.RueidisPaths

// isRueidis reports whether path is the client package of rueidis or
// valkey-go, where Client, DedicatedClient and Lua live.
func isRueidis(path string) bool { return path == Rueidis || path == Valkey }

// isRueidisCmds reports whether path is the package of the command
// builder, whose methods Client.B() chains call.
func isRueidisCmds(path string) bool {
	return path == Rueidis+"/internal/cmds" || path == Valkey+"/internal/cmds"
}

// rueidisCollector is the rueidis front end's state for one package.
type rueidisCollector struct {
	pass *analysis.Pass
	x    *keyexpr.Extractor
	res  *Result
	// built maps the call that completes a builder chain (Build, Cache) to
	// the command it builds; call is nil when the command has no keys.
	built map[*ast.CallExpr]*builtCmd
	// pkgVars holds the initial values of package-level variables, built
	// on first use, for scripts created outside the function running them.
	pkgVars map[*types.Var]ast.Expr
	// lastTx is the end of the last transaction sent in a function, by
	// the function's start.
	lastTx map[token.Pos]token.Pos
}

type builtCmd struct {
	command string
	call    *Call
}

// collectRueidis records each command built with Client.B() once, at the
// call that completes the builder (Build or Cache), wherever it is then
// sent; Lua scripts at Exec and ExecMulti; and MULTI ... EXEC sent with
// DoMulti as a transaction. A DoMulti without MULTI is a pipeline, whose
// commands are independent.
func collectRueidis(pass *analysis.Pass, x *keyexpr.Extractor, res *Result) {
	c := &rueidisCollector{pass: pass, x: x, res: res, built: map[*ast.CallExpr]*builtCmd{}, lastTx: map[token.Pos]token.Pos{}}
	var multis []*ast.CallExpr
	ins := res.ins
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil {
			return
		}
		switch path := fn.Pkg().Path(); {
		case isRueidisCmds(path):
			if completesBuilder(fn) {
				c.builder(call)
			}
		case isRueidis(path):
			switch recv := recvTypeName(fn); {
			case recv == "Lua" && (fn.Name() == "Exec" || fn.Name() == "ExecMulti"):
				c.lua(call, fn)
			case recv != "" && fn.Name() == "DoMulti":
				multis = append(multis, call)
			}
		}
	})
	// DoMulti's arguments are completed before it, but visited after it.
	for _, call := range multis {
		c.transaction(call)
	}
}

// rueidisResultMethod is what a method of the result Do returns
// (RedisResult, ValkeyResult) gives: Error and NonRedisError the error
// alone, as go-redis's Err; the others (ToString, AsInt64, AsBool, …) the
// value.
func rueidisResultMethod(recv, method string) (ReplyPart, bool) {
	if recv != "RedisResult" && recv != "ValkeyResult" {
		return 0, false
	}
	switch method {
	case "Error", "NonRedisError":
		return ReplyErr, true
	}
	return ReplyValue, true
}

// clientOf tells valkey-go's functions from rueidis's.
func clientOf(fn *types.Func) Client {
	if fn.Pkg() != nil && clientpaths.InsideAny(fn.Pkg().Path(), []string{Valkey}) {
		return ValkeyClient
	}
	return RueidisClient
}

// recvTypeName is the name of fn's receiver type, or "" for a function.
func recvTypeName(fn *types.Func) string {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// completesBuilder reports whether fn turns a builder into a command that
// can be sent: Build, Cache, and Arbitrary's Blocking and ReadOnly.
func completesBuilder(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Results().Len() != 1 {
		return false
	}
	n, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named)
	if !ok {
		return false
	}
	out := n.Obj().Name()
	recv := recvTypeName(fn)
	return (out == "Completed" || out == "Cacheable") && recv != "Completed" && recv != "Cacheable" && fn.Name() != "MultiGet"
}

// chainStep is one builder method call of a chain.
type chainStep struct {
	call *ast.CallExpr
	fn   *types.Func
}

// chain returns the builder methods from the command (called on Builder)
// to the one before done, following a chain held in a local variable.
func (c *rueidisCollector) chain(done *ast.CallExpr) []chainStep {
	sel, ok := ast.Unparen(done.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var steps []chainStep
	e := sel.X
	for range 256 {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			o := c.x.Origin(e)
			if o == e {
				return nil
			}
			e = o
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !isRueidisCmds(fn.Pkg().Path()) {
			return nil
		}
		steps = append(steps, chainStep{call, fn})
		if recvTypeName(fn) == "Builder" {
			for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
				steps[i], steps[j] = steps[j], steps[i]
			}
			return steps
		}
		e = sel.X
	}
	return nil
}

// builder records the command a builder chain completes.
func (c *rueidisCollector) builder(done *ast.CallExpr) {
	steps := c.chain(done)
	if len(steps) == 0 {
		return
	}
	start := steps[0]
	var command string
	if start.fn.Name() == "Arbitrary" {
		command = c.arbitraryCommand(start.call)
		if command == "" {
			return
		}
	} else {
		command = builderCommand(start.fn.Name())
	}
	b := &builtCmd{command: command}
	c.built[done] = b

	rec := &Call{Node: done, Method: "B()." + start.fn.Name() + "()", Command: command, Complete: true,
		Script: scriptCommands[command]}
	many := false
	for i, st := range steps {
		if i == 0 && start.fn.Name() != "Arbitrary" {
			continue
		}
		if !IsBuilderKeyMethod(recvTypeName(st.fn), st.fn) {
			continue
		}
		keys, complete, variadic := c.builderKeys(st)
		rec.Keys = append(rec.Keys, keys...)
		rec.Complete = rec.Complete && complete
		many = many || variadic
	}
	if rec.Script && len(steps) > 1 && len(steps[1].call.Args) == 1 {
		rec.Source = steps[1].call.Args[0] // Script, Sha1 or Function
		rec.ArgvKnown = true
		for _, st := range steps {
			if st.fn.Name() == "Arg" {
				rec.Argv = append(rec.Argv, st.call.Args...)
				rec.ArgvKnown = rec.ArgvKnown && !st.call.Ellipsis.IsValid()
			}
		}
	}
	rec.MultiKey = rec.Script || many || len(rec.Keys) > 1 || !rec.Complete
	if len(rec.Keys) == 0 && !rec.Script && rec.Complete {
		return
	}
	rec.Client = clientOf(start.fn)
	rec.readBuilder(steps)
	b.call = rec
	c.res.Calls = append(c.res.Calls, rec)
}

// builderKeys returns the keys one key method adds: its variadic keys, or
// its first argument (KeyValue(key, value) and the like).
func (c *rueidisCollector) builderKeys(st chainStep) (keys []keyexpr.Elem, complete, variadic bool) {
	sig := st.fn.Type().(*types.Signature)
	args := st.call.Args
	one := func(e ast.Expr) keyexpr.Elem { return keyexpr.Elem{Key: c.x.Key(e), Expr: e} }
	if sig.Variadic() && sig.Params().Len() == 1 {
		if st.call.Ellipsis.IsValid() {
			keys, complete = c.x.List(args[0])
			return keys, complete, true
		}
		for _, a := range args {
			keys = append(keys, one(a))
		}
		return keys, true, true
	}
	if len(args) == 0 {
		return nil, true, false
	}
	return []keyexpr.Elem{one(args[0])}, true, false
}

// arbitraryCommand is the command named by B().Arbitrary("CMD", "SUB"...)
// when its tokens are constants.
func (c *rueidisCollector) arbitraryCommand(call *ast.CallExpr) string {
	if call.Ellipsis.IsValid() {
		return ""
	}
	argv := make([]rediscmd.Arg, len(call.Args))
	for i, a := range call.Args {
		if tv := c.pass.TypesInfo.Types[a]; tv.Value != nil && tv.Value.Kind() == constant.String {
			argv[i] = rediscmd.Arg{Text: constant.StringVal(tv.Value), Known: true}
		}
	}
	if cmd := rediscmd.Resolve(argv); cmd != nil {
		return strings.ReplaceAll(cmd.Name, "|", " ")
	}
	if len(argv) > 0 && argv[0].Known {
		return strings.ToUpper(argv[0].Text)
	}
	return ""
}

// builderKeyMethods are the builder methods whose first argument is a key
// (or whose arguments are keys): the builder is generated from the
// commands' documentation, so argument names follow it.
var builderKeyMethods = map[string]bool{
	"Key": true, "Keys": true, "Key1": true, "Key2": true, "Newkey": true,
	"Destination": true, "DestinationKey": true, "Destkey": true, "Dst": true,
	"Source": true, "Sourcekey": true, "SourceKey": true, "Src": true,
	"Store": true, "Storedist": true, "Graph": true,
	"KeyValue": true, "KeyTimestampValue": true,
}

// notKeyTypes are builder types, by name prefix, whose methods above take
// no key a cluster routes by: FT.SEARCH's INKEYS, suggestion dictionaries,
// CLUSTER KEYSLOT's argument, RedisGears configuration, and RedisAI
// script arguments after the script's key.
var notKeyTypes = []string{"AiScriptexecuteFunction", "AiScriptexecuteKeys", "AiScriptgetKey", "AiScriptgetMeta",
	"ClusterKeyslot", "FtSearch", "FtSug", "RgConfig"}

// shardChannelCommands take shard channels, which are hashed to slots
// like keys: their channels must share a slot.
var shardChannelCommands = []string{"Spublish", "Ssubscribe", "Sunsubscribe", "PubsubShardnumsub"}

// IsBuilderKeyMethod reports whether method fn of builder type recv adds
// keys to the command (the rueidis builder computes their slot).
func IsBuilderKeyMethod(recv string, fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() > 0 && builderKeyMethod(recv, fn.Name(), isStringOrStrings(sig.Params().At(0).Type()))
}

// builderKeyMethod is IsBuilderKeyMethod by name, given whether the
// method's first parameter is a string or strings.
func builderKeyMethod(recv, name string, stringParam bool) bool {
	if !stringParam {
		return false
	}
	if name == "Channel" {
		return hasAnyPrefix(recv, shardChannelCommands)
	}
	return builderKeyMethods[name] && !hasAnyPrefix(recv, notKeyTypes)
}

func isStringOrStrings(t types.Type) bool {
	if s, ok := t.(*types.Slice); ok {
		t = s.Elem()
	}
	return astutil.IsString(t)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// builderCommandNames maps a builder method name, upper-cased, to the
// command it starts: "CLIENTKILL" to "CLIENT KILL", "EVALRO" to "EVAL_RO".
var builderCommandNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	add := func(name string) {
		m[squash(name)] = strings.ReplaceAll(name, "|", " ")
	}
	for _, n := range rediscmd.Names() {
		add(n)
		if cmd, ok := rediscmd.Lookup(n); ok {
			for _, sub := range cmd.Subcommands {
				add(sub.Name)
			}
		}
	}
	for n := range newerCommands {
		add(n)
	}
	return m
})

// moduleCommandPrefixes are the builder prefixes of module commands, whose
// names Redis spells MODULE.COMMAND.
var moduleCommandPrefixes = []string{"Json", "Ft", "Bf", "Cf", "Cms", "Topk", "Tdigest", "Ts", "Graph", "Ai", "Rg"}

// builderCommand is the command a builder method (called on Builder)
// starts.
func builderCommand(method string) string {
	if name, ok := builderCommandNames()[squash(method)]; ok {
		return name
	}
	for _, p := range moduleCommandPrefixes {
		if rest, ok := strings.CutPrefix(method, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return strings.ToUpper(p) + "." + strings.ToUpper(rest)
		}
	}
	return strings.ToUpper(method)
}

// squash upper-cases name and drops everything but letters and digits.
func squash(name string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lua records (*Lua).Exec(ctx, c, keys, args) and ExecMulti(ctx, c,
// LuaExec{Keys: ...}...), each execution a script call of its own.
func (c *rueidisCollector) lua(call *ast.CallExpr, fn *types.Func) {
	method := fn.Name()
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) < 2 {
		return
	}
	src, readOnly := c.luaSource(sel.X)
	command := "EVAL"
	if readOnly {
		command = "EVAL_RO"
	}
	newCall := func(keys []keyexpr.Elem, complete bool) *Call {
		rec := &Call{Node: call, Method: "Lua." + method, Command: command, Client: clientOf(fn),
			MultiKey: true, Script: true, Source: src, Keys: keys, Complete: complete}
		c.res.Calls = append(c.res.Calls, rec)
		return rec
	}
	if method == "Exec" {
		if len(call.Args) != 4 {
			return
		}
		rec := newCall(c.x.List(call.Args[2]))
		rec.Argv, rec.ArgvKnown = c.argv(call.Args[3])
		return
	}
	execs := call.Args[2:]
	if call.Ellipsis.IsValid() {
		list, complete := c.x.List(call.Args[2])
		if !complete || len(call.Args) != 3 {
			newCall(nil, false)
			return
		}
		execs = nil
		for _, el := range list {
			if el.Loop != nil {
				newCall(nil, false)
				return
			}
			execs = append(execs, el.Expr)
		}
	}
	for _, e := range execs {
		lit, ok := c.x.Composite(e)
		if !ok {
			newCall(nil, false)
			continue
		}
		var rec *Call
		if keys, ok := keyexpr.Field(lit, "Keys"); ok {
			rec = newCall(c.x.List(keys))
		} else {
			rec = newCall(nil, true)
		}
		if args, ok := keyexpr.Field(lit, "Args"); ok {
			rec.Argv, rec.ArgvKnown = c.argv(args)
		} else {
			rec.ArgvKnown = true
		}
	}
}

// argv resolves a script's []string of arguments, when every element is
// known once.
func (c *rueidisCollector) argv(e ast.Expr) ([]ast.Expr, bool) {
	list, complete := c.x.List(e)
	if !complete {
		return nil, false
	}
	out := make([]ast.Expr, len(list))
	for i, el := range list {
		if el.Loop != nil {
			return nil, false
		}
		out[i] = el.Expr
	}
	return out, true
}

// luaSource follows a *Lua value to the NewLuaScript... call that created
// it and returns the script text argument, and whether the script runs
// read-only (EVAL_RO).
func (c *rueidisCollector) luaSource(e ast.Expr) (ast.Expr, bool) {
	for range 8 {
		e = ast.Unparen(e)
		if call, ok := e.(*ast.CallExpr); ok {
			fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil || !isRueidis(fn.Pkg().Path()) {
				return nil, false
			}
			text, _, ok := rueidisScript(fn, call)
			if !ok {
				return nil, false
			}
			return text, strings.Contains(fn.Name(), "ReadOnly")
		}
		if o := c.x.Origin(e); o != e {
			e = o
			continue
		}
		if v, isField := c.x.FieldValue(e); isField {
			if e = v; e == nil {
				return nil, false
			}
			continue
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return nil, false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.Pkg() != c.pass.Pkg || v.Parent() != v.Pkg().Scope() {
			return nil, false
		}
		init, ok := c.packageVars()[v]
		if !ok {
			return nil, false
		}
		e = init
	}
	return nil, false
}

// packageVars maps package-level variables declared with one value each
// to that value. Variables assigned elsewhere too are still mapped: a
// script variable is set once in practice.
func (c *rueidisCollector) packageVars() map[*types.Var]ast.Expr {
	if c.pkgVars != nil {
		return c.pkgVars
	}
	c.pkgVars = packageVarValues(c.pass)
	return c.pkgVars
}

// transaction reads DoMulti(ctx, MULTI, cmds..., EXEC): the commands
// between MULTI and EXEC are one transaction. WATCH commands sent before
// MULTI, in the list or earlier in the same function (on a dedicated
// connection), are its watched keys.
func (c *rueidisCollector) transaction(call *ast.CallExpr) {
	if len(call.Args) < 2 {
		return
	}
	var cmds []keyexpr.Elem
	if call.Ellipsis.IsValid() {
		if len(call.Args) != 2 {
			return
		}
		var ok bool
		if cmds, ok = c.x.List(call.Args[1]); !ok {
			return
		}
	} else {
		for _, a := range call.Args[1:] {
			cmds = append(cmds, keyexpr.Elem{Expr: a})
		}
	}
	built := make([]*builtCmd, len(cmds))
	multi, exec := -1, -1
	for i, el := range cmds {
		b := c.built[c.completion(el.Expr)]
		built[i] = b
		if b == nil || el.Loop != nil {
			continue
		}
		switch b.command {
		case "MULTI":
			if multi < 0 {
				multi = i
			}
		case "EXEC":
			exec = i
		}
	}
	if multi < 0 || exec < multi {
		return // a pipeline
	}
	tx := &Tx{Node: call, Method: "MULTI/EXEC", WatchComplete: true}
	for i, b := range built {
		if b == nil || b.call == nil {
			continue
		}
		switch {
		case i < multi && b.command == "WATCH":
			tx.Watch = true
			tx.Watched = append(tx.Watched, b.call.Keys...)
			tx.WatchComplete = tx.WatchComplete && b.call.Complete
		case i > multi && i < exec:
			b.call.Tx = tx
			b.call.Loop = cmds[i].Loop
			tx.Calls = append(tx.Calls, b.call)
		}
	}
	// EXEC ends every WATCH: only those since the function's previous
	// transaction count.
	var from token.Pos
	if fn := astutil.EnclosingFuncAt(c.res.ins, call.Pos()); fn != nil {
		from = fn.Pos()
	}
	since := max(from, c.lastTx[from])
	c.lastTx[from] = call.End()
	for _, rec := range c.res.Calls {
		if rec.Command == "WATCH" && rec.Tx == nil && rec.Node.Pos() >= since && rec.Node.End() <= call.Pos() {
			tx.Watch = true
			tx.Watched = append(tx.Watched, rec.Keys...)
			tx.WatchComplete = tx.WatchComplete && rec.Complete
		}
	}
	c.res.Txs = append(c.res.Txs, tx)
}

// completion returns the builder completion an expression holds: the call
// itself, or the value a local variable was assigned.
func (c *rueidisCollector) completion(e ast.Expr) *ast.CallExpr {
	for range 4 {
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			return call
		}
		o := c.x.Origin(e)
		if o == e {
			return nil
		}
		e = o
	}
	return nil
}
