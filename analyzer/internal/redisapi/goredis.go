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

// GoRedis is the import path of go-redis v9.
const GoRedis = clientpaths.GoRedis

// GoRedisV8 is the import path of go-redis v8, whose API is v9's for every
// method both have (TestTableMatchesGoRedisV8 checks the key positions).
const GoRedisV8 = clientpaths.GoRedisV8

// goRedisPaths are the packages whose methods the go-redis front end reads
// with the go-redis method table: clients with go-redis v9's API.
var goRedisPaths = clientpaths.GoRedisPaths

// IsGoRedis reports whether path is a package with go-redis v9's API, so
// its methods, Script type and Tx type mean what they mean in go-redis.
func IsGoRedis(path string) bool {
	for _, p := range goRedisPaths {
		if path == p {
			return true
		}
	}
	return false
}

// collector is the go-redis front end's state for one package.
type collector struct {
	pass *analysis.Pass
	x    *keyexpr.Extractor
	res  *Result
	// txOf maps a pipeliner or Tx variable to its transaction.
	txOf map[*types.Var]*Tx
	// heldTx are the transactions whose callback is a function literal
	// held in a variable, by their TxPipelined or Watch call.
	heldTx map[*ast.CallExpr]*Tx
	// splitBy are the variables and fields holding a cluster client that
	// follows the server's request policies.
	splitBy map[types.Object]bool
}

// collectGoRedis reads go-redis methods on any client type, Do/Process
// with a literal command name, transactions and scripts.
func collectGoRedis(pass *analysis.Pass, x *keyexpr.Extractor, res *Result) {
	c := &collector{pass: pass, x: x, res: res, txOf: map[*types.Var]*Tx{}, heldTx: map[*ast.CallExpr]*Tx{}}
	ins := res.ins
	// A callback held in a variable is written before the call that runs
	// it: bind its pipeliner first, so its commands join the transaction.
	// A client configured to split commands per slot may be configured
	// after (or in another function than) its calls: note it first too.
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		c.heldCallback(n.(*ast.CallExpr))
		c.splitter(n.(*ast.CallExpr))
	})
	c.storedSplitters(pass.Files)
	first := len(res.Txs)
	ins.Preorder([]ast.Node{(*ast.AssignStmt)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			c.assign(n)
		case *ast.CallExpr:
			c.call(n)
			c.handOff(n)
		}
	})
	for _, tx := range res.Txs[first:] {
		tx.OneNode = c.oneNode(tx.Node)
	}
}

// oneNode reports whether a transaction's call is made on go-redis's plain
// Client, a client of one server.
func (c *collector) oneNode(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	return isGoRedisType(c.pass.TypesInfo.TypeOf(sel.X), "Client")
}

// nodeWideMethods are go-redis's methods for commands with no key that act
// on the whole keyspace, the function libraries or the configuration of
// the server that runs them, with their commands. go-redis's ClusterClient
// sends each to one master it picks (DBSIZE and SCRIPT LOAD, which it
// sends to every master, are not here); the nodewide analyzer's tests run
// each on a cluster.
var nodeWideMethods = map[string]string{
	"Keys": "KEYS", "Scan": "SCAN", "ScanType": "SCAN",
	"FlushDB": "FLUSHDB", "FlushDBAsync": "FLUSHDB", "FlushAll": "FLUSHALL", "FlushAllAsync": "FLUSHALL",
	"FunctionLoad": "FUNCTION LOAD", "FunctionLoadReplace": "FUNCTION LOAD",
	"FunctionDelete": "FUNCTION DELETE", "FunctionFlush": "FUNCTION FLUSH", "FunctionFlushAsync": "FUNCTION FLUSH",
	"ConfigSet": "CONFIG SET",
	"DBSize":    "DBSIZE", // summed over every master by a cluster client, one shard's on a Ring
}

// nodeWideCommands are the commands of nodeWideMethods, also as sent with
// Do.
var nodeWideCommands = map[string]bool{
	"KEYS": true, "SCAN": true, "FLUSHDB": true, "FLUSHALL": true,
	"FUNCTION LOAD": true, "FUNCTION DELETE": true, "FUNCTION FLUSH": true, "CONFIG SET": true, "DBSIZE": true,
}

// reach is what kind of client call's receiver is, for keyless commands.
// Only go-redis v9 is read: its routing is what the nodewide tests check
// on a cluster (v8.11.5 cannot read a Redis 7 cluster's CLUSTER SLOTS,
// and rueidiscompat routes as rueidis does).
func (c *collector) reach(call *ast.CallExpr, fn *types.Func) Reach {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != clientpaths.GoRedis {
		return ReachUnknown
	}
	switch t := c.pass.TypesInfo.TypeOf(sel.X); {
	case isGoRedisType(t, "ClusterClient"):
		return ReachCluster
	case isGoRedisType(t, "Ring"):
		return c.ringReach(sel.X)
	case isGoRedisType(t, "UniversalClient"):
		return c.universalReach(sel.X)
	case types.IsInterface(t) && !IsPipeline(t) && !isGoRedisType(t, "StatefulCmdable"):
		// go-redis's Cmdable, or an interface of the user's code that
		// embeds it or lists its methods (go-zero's RedisNode), so that
		// the method is one of go-redis's interfaces': a ClusterClient
		// satisfies it, and the code may be given one.
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
			return ReachMaybeCluster
		}
	}
	return ReachUnknown
}

// universalReach is what a UniversalClient e is when e is a local
// variable that holds only what NewUniversalClient returns for options
// written in place: go-redis builds a ClusterClient for several Addrs or
// IsClusterMode, and no MasterName (which makes a failover client), and a
// plain Client otherwise. Options that are not all literal may make
// either.
func (c *collector) universalReach(e ast.Expr) Reach {
	lit, ok := c.optionsInPlace(e, "NewUniversalClient")
	if !ok {
		return ReachMaybeCluster
	}
	addrs, master, clusterMode := 0, false, false
	if v, ok := keyexpr.Field(lit, "Addrs"); ok {
		list, ok := ast.Unparen(v).(*ast.CompositeLit)
		if !ok {
			return ReachMaybeCluster
		}
		addrs = len(list.Elts)
	}
	if v, ok := keyexpr.Field(lit, "MasterName"); ok {
		tv := c.pass.TypesInfo.Types[v]
		if tv.Value == nil {
			return ReachMaybeCluster
		}
		master = constant.StringVal(tv.Value) != ""
	}
	if v, ok := keyexpr.Field(lit, "IsClusterMode"); ok {
		tv := c.pass.TypesInfo.Types[v]
		if tv.Value == nil {
			return ReachMaybeCluster
		}
		clusterMode = constant.BoolVal(tv.Value)
	}
	if !master && (addrs > 1 || clusterMode) {
		return ReachCluster
	}
	return ReachUnknown
}

// ringReach is what a Ring e is when e is a local variable that holds only
// what NewRing returns for options written in place: one address routes
// every command to that server, several shard the keys.
func (c *collector) ringReach(e ast.Expr) Reach {
	lit, ok := c.optionsInPlace(e, "NewRing")
	if !ok {
		return ReachMaybeRing
	}
	v, ok := keyexpr.Field(lit, "Addrs")
	if !ok {
		return ReachMaybeRing
	}
	addrs, ok := ast.Unparen(v).(*ast.CompositeLit)
	if !ok {
		return ReachMaybeRing
	}
	if len(addrs.Elts) == 1 {
		return ReachUnknown
	}
	return ReachRing
}

// optionsInPlace returns the options literal of the go-redis constructor
// ctor (NewRing(&redis.RingOptions{...})) when e is a local variable that
// holds only what that call returns.
func (c *collector) optionsInPlace(e ast.Expr, ctor string) (*ast.CompositeLit, bool) {
	call, ok := ast.Unparen(c.x.Origin(e)).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	if fn, _, ok := c.goRedisMethod(call); !ok || fn.Name() != ctor {
		return nil, false
	}
	u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok {
		return nil, false
	}
	lit, ok := u.X.(*ast.CompositeLit)
	return lit, ok
}

// isGoRedisType reports whether t, or what it points to, is the go-redis
// type of that name.
func isGoRedisType(t types.Type, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && IsGoRedis(n.Obj().Pkg().Path())
}

// namedCallback notes a TxPipelined or Watch callback that is a function
// or method of the user's code (rdb.TxPipelined(ctx, s.queue)): the
// transaction is handed to its first parameter, as in a call
// s.queue(pipe) placed at the callback.
func (c *collector) namedCallback(fn ast.Expr, tx *Tx) {
	if _, ok := typeutil.Callee(c.pass.TypesInfo, &ast.CallExpr{Fun: fn}).(*types.Func); !ok {
		return
	}
	call := &ast.CallExpr{Fun: fn, Lparen: fn.End(), Args: []ast.Expr{fn}, Rparen: fn.End()}
	c.res.handOffs = append(c.res.handOffs, handOff{call: call, arg: 0, tx: tx, client: GoRedisClient})
}

// handOff notes a call that passes a transaction's pipeliner (or a WATCH
// block's *Tx) to a function of the user's code.
func (c *collector) handOff(call *ast.CallExpr) {
	if _, _, ok := c.goRedisMethod(call); ok {
		return
	}
	for i, a := range call.Args {
		v, ok := c.x.Var(a)
		if !ok {
			continue
		}
		if tx := c.txOf[v]; tx != nil {
			c.res.handOffs = append(c.res.handOffs, handOff{call: call, arg: i, tx: tx, client: GoRedisClient})
		}
	}
}

// goRedisMethod returns the go-redis method a call invokes and the name of
// its receiver's type.
func (c *collector) goRedisMethod(call *ast.CallExpr) (*types.Func, string, bool) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil, "", false
	}
	if !IsGoRedis(fn.Pkg().Path()) {
		return goRedisShaped(fn)
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn, "", true
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	name := ""
	if n, ok := types.Unalias(t).(*types.Named); ok {
		name = n.Obj().Name()
	}
	return fn, name, true
}

// goRedisShaped returns go-redis's own method when fn is a method of an
// interface of the user's code that go-redis's UniversalClient (or
// Cmdable) lists with the same name and an identical signature, as code
// that takes either a Client or a ClusterClient declares (type clienter
// interface { Get(ctx context.Context, key string) *redis.StringCmd; Del(ctx
// context.Context, keys ...string) *redis.IntCmd; ... }): whatever
// implements it answers with go-redis's commands, so the call is read as
// go-redis's. A method whose signature differs in anything (a wrapper's
// Get(key string) (string, error)) stays unread.
func goRedisShaped(fn *types.Func) (*types.Func, string, bool) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return nil, "", false
	}
	pkg := goRedisPackageOf(sig)
	if pkg == nil {
		return nil, "", false
	}
	for _, name := range []string{"UniversalClient", "Cmdable"} {
		obj, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := obj.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range iface.Methods() {
			if m.Name() == fn.Name() && types.Identical(m.Type(), sig) {
				return m, name, true
			}
		}
	}
	return nil, "", false
}

// goRedisPackageOf is the go-redis package a type in sig's parameters or
// results comes from (*redis.StringCmd, redis.Pipeliner), or nil.
func goRedisPackageOf(sig *types.Signature) *types.Package {
	var found *types.Package
	var visit func(t types.Type, depth int)
	visit = func(t types.Type, depth int) {
		if found != nil || depth > 4 {
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.Pointer:
			visit(t.Elem(), depth+1)
		case *types.Slice:
			visit(t.Elem(), depth+1)
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && IsGoRedis(p.Path()) {
				found = p
			}
		case *types.Signature:
			for v := range t.Params().Variables() {
				visit(v.Type(), depth+1)
			}
		}
	}
	for _, tuple := range []*types.Tuple{sig.Results(), sig.Params()} {
		for v := range tuple.Variables() {
			visit(v.Type(), 0)
		}
	}
	return found
}

// receiverTx is the transaction a call's receiver belongs to.
func (c *collector) receiverTx(call *ast.CallExpr) *Tx {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := c.x.Var(sel.X)
	if !ok {
		return nil
	}
	return c.txOf[v]
}

// assign notices pipe := rdb.TxPipeline().
func (c *collector) assign(n *ast.AssignStmt) {
	if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
		return
	}
	call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	if fn, _, ok := c.goRedisMethod(call); !ok || fn.Name() != "TxPipeline" {
		return
	}
	v, ok := c.x.Var(n.Lhs[0])
	if !ok {
		return
	}
	tx := c.receiverTx(call)
	if tx == nil {
		tx = &Tx{Node: call, Method: "TxPipeline", WatchComplete: true, body: [2]token.Pos{n.End(), c.funcEnd(n.Pos())}}
		c.res.Txs = append(c.res.Txs, tx)
	}
	c.txOf[v] = tx
}

// funcEnd is the end of the function body around p.
func (c *collector) funcEnd(p token.Pos) token.Pos {
	end := token.NoPos
	for _, f := range c.pass.Files {
		if f.Pos() <= p && p < f.End() {
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil || n.Pos() > p || n.End() <= p {
					return false
				}
				switch n.(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					end = n.End()
				}
				return true
			})
		}
	}
	return end
}

// funcParam returns the first parameter of a function literal argument, or
// of a function of this package named by it, with the function's body.
func (c *collector) funcParam(e ast.Expr) (*types.Var, *ast.BlockStmt) {
	var typ *ast.FuncType
	var body *ast.BlockStmt
	switch f := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		typ, body = f.Type, f.Body
	default:
		return nil, nil
	}
	if typ.Params == nil || len(typ.Params.List) == 0 || len(typ.Params.List[0].Names) == 0 {
		return nil, nil
	}
	v, ok := c.pass.TypesInfo.Defs[typ.Params.List[0].Names[0]].(*types.Var)
	if !ok {
		return nil, nil
	}
	return v, body
}

// heldCallback starts the transaction of TxPipelined(ctx, fn) or
// Watch(ctx, fn, keys...) whose fn is a local variable assigned one
// function literal.
func (c *collector) heldCallback(call *ast.CallExpr) {
	fn, recv, ok := c.goRedisMethod(call)
	if !ok || recv == "" || recv == "Script" || len(call.Args) < 2 {
		return
	}
	name := fn.Name()
	if name != "TxPipelined" && name != "Watch" || name == "TxPipelined" && len(call.Args) != 2 {
		return
	}
	if _, inline := ast.Unparen(call.Args[1]).(*ast.FuncLit); inline {
		return
	}
	lit, ok := ast.Unparen(c.x.Origin(call.Args[1])).(*ast.FuncLit)
	if !ok {
		return
	}
	v, body := c.funcParam(lit)
	if v == nil {
		return
	}
	tx := &Tx{Node: call, Method: name, WatchComplete: true, body: [2]token.Pos{body.Pos(), body.End()}}
	if name == "Watch" {
		tx.Watch = true
		tx.Watched, tx.WatchComplete = c.keysOf(call, variadic(2))
	}
	c.txOf[v] = tx
	c.heldTx[call] = tx
	c.res.Txs = append(c.res.Txs, tx)
}

// txPipelined starts the transaction of TxPipelined(ctx, fn).
func (c *collector) txPipelined(call *ast.CallExpr) {
	tx := c.receiverTx(call)
	v, body := c.funcParam(call.Args[1])
	if tx == nil {
		tx = &Tx{Node: call, Method: "TxPipelined", WatchComplete: true}
		if body != nil {
			tx.body = [2]token.Pos{body.Pos(), body.End()}
		}
		c.res.Txs = append(c.res.Txs, tx)
	}
	if v != nil {
		c.txOf[v] = tx
	} else {
		c.namedCallback(call.Args[1], tx)
	}
}

func (c *collector) call(call *ast.CallExpr) {
	fn, recv, ok := c.goRedisMethod(call)
	if !ok || recv == "" {
		return
	}
	if c.heldTx[call] != nil {
		return
	}
	name := fn.Name()
	args := call.Args
	switch {
	case name == "TxPipelined" && len(args) == 2:
		c.txPipelined(call)
		return
	case name == "Watch" && len(args) >= 2 && recv != "Script":
		tx := &Tx{Node: call, Method: "Watch", Watch: true}
		tx.Watched, tx.WatchComplete = c.keysOf(call, variadic(2))
		v, body := c.funcParam(args[1])
		if body != nil {
			tx.body = [2]token.Pos{body.Pos(), body.End()}
		}
		if v != nil {
			c.txOf[v] = tx
		} else {
			c.namedCallback(args[1], tx)
		}
		c.res.Txs = append(c.res.Txs, tx)
		return
	case name == "Pipelined" || name == "Pipeline" || name == "TxPipeline" || name == "Exec":
		return
	}

	var rec *Call
	switch {
	case recv == "Script":
		mt, ok := scriptMethods[name]
		if !ok {
			return
		}
		rec = c.fromTable("Script."+name, mt, call)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			rec.Source, rec.ScriptValue = sel.X, true
		}
		c.scriptArgv(rec)
	case name == "Do":
		rec = c.fromArgv(call, "Do", args[1:], call.Ellipsis.IsValid())
		if rec != nil && rec.Script && rec.Complete && !call.Ellipsis.IsValid() {
			// Do(ctx, "EVAL", script, numkeys, keys..., args...)
			if first := 4 + len(rec.Keys); len(args) >= first {
				rec.Argv, rec.ArgvKnown = args[first:], true
			}
		}
	case name == "Process" && len(args) == 2:
		inner, ok := ast.Unparen(c.x.Origin(args[1])).(*ast.CallExpr)
		if !ok {
			return
		}
		f, _, ok := c.goRedisMethod(inner)
		if !ok || f.Type().(*types.Signature).Recv() != nil || !strings.HasPrefix(f.Name(), "New") || len(inner.Args) < 1 {
			return
		}
		rec = c.fromArgv(call, "Process", inner.Args[1:], inner.Ellipsis.IsValid())
	default:
		if mt, ok := multiKey[name]; ok {
			rec = c.fromTable(name, mt, call)
			if rec.Script && len(args) > 1 {
				rec.Source = args[1]
				c.scriptArgv(rec)
			}
		} else {
			rec = c.single(fn, call)
		}
		if cmd, ok := nodeWideMethods[name]; ok && rec == nil {
			// Recorded only where it may reach one master of several.
			if reach := c.reach(call, fn); reach != ReachUnknown {
				rec = &Call{Node: call, Method: name, Command: cmd, Complete: true, NodeWide: true, Reach: reach}
			}
		}
	}
	if rec == nil {
		return
	}
	rec.Client = GoRedisClient
	if nodeWideCommands[rec.Command] && !rec.NodeWide {
		// Do(ctx, "KEYS", pattern)
		rec.NodeWide, rec.Reach = true, c.reach(call, fn)
	}
	if rec.NodeWide {
		rec.FollowsPolicies = c.splits(call)
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && recv != "Script" {
		rec.On = sel.X
		t := c.pass.TypesInfo.TypeOf(sel.X)
		rec.OnPipeline, rec.OnWatchTx = IsPipeline(t), isGoRedisType(t, "Tx")
	} else if recv == "Script" && len(args) > 1 {
		rec.On = args[1] // Script.Run(ctx, c, ...) sends on c
	}
	if _, ok := MultiShard[rec.Command]; ok && c.splits(call) {
		rec.SplitBySlot = true
	}
	if tx := c.receiverTx(call); tx != nil {
		rec.Tx = tx
		rec.Loop = c.x.LoopOf(call.Pos(), tx.body[0], tx.body[1])
		tx.Calls = append(tx.Calls, rec)
	}
	c.res.Calls = append(c.res.Calls, rec)
}

func (c *collector) fromTable(method string, mt method, call *ast.CallExpr) *Call {
	rec := &Call{Node: call, Method: method, Command: mt.cmd, MultiKey: true, Script: scriptCommands[mt.cmd], Complete: true}
	for _, spec := range mt.keys {
		ks, complete := c.keysOf(call, spec)
		rec.Keys = append(rec.Keys, ks...)
		rec.Complete = rec.Complete && complete
	}
	return rec
}

// scriptArgv reads ARGV of a script method: Eval(ctx, script, keys,
// args...) on a client, Run(ctx, c, keys, args...) on a Script. A spread
// slice is followed to its elements when each is in sight once.
func (c *collector) scriptArgv(rec *Call) {
	args := rec.Node.Args
	if len(args) >= 3 {
		rec.KeysArg = args[2]
	}
	if !rec.Node.Ellipsis.IsValid() {
		if len(args) >= 3 {
			rec.Argv, rec.ArgvKnown = args[3:], true
		}
		return
	}
	if len(args) != 4 {
		return
	}
	rec.ArgvArg = args[3]
	elems, complete := c.x.List(args[3])
	if !complete {
		return
	}
	argv := make([]ast.Expr, len(elems))
	for i, el := range elems {
		if el.Loop != nil || el.Expr == nil {
			return
		}
		argv[i] = el.Expr
	}
	rec.Argv, rec.ArgvKnown = argv, true
}

// single handles methods outside the multi-key table: a parameter named key
// or stream is the command's one key.
func (c *collector) single(fn *types.Func, call *ast.CallExpr) *Call {
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		p := sig.Params().At(i)
		if (p.Name() == "key" || p.Name() == "stream") && astutil.IsString(p.Type()) {
			a := call.Args[i]
			rec := &Call{Node: call, Method: fn.Name(), Command: strings.ToUpper(fn.Name()), Complete: true,
				Keys: []keyexpr.Elem{{Key: c.x.Key(a), Expr: a}}}
			rec.readGoRedisMethod(c.pass, c.x, fn.Name())
			return rec
		}
	}
	return nil
}

// keysOf resolves one argSpec of a call.
func (c *collector) keysOf(call *ast.CallExpr, spec argSpec) ([]keyexpr.Elem, bool) {
	args := call.Args
	if spec.i >= len(args) {
		if spec.kind == argVariadic {
			return nil, true
		}
		return nil, false
	}
	a := args[spec.i]
	one := func(e ast.Expr) keyexpr.Elem { return keyexpr.Elem{Key: c.x.Key(e), Expr: e} }
	switch spec.kind {
	case argKey:
		return []keyexpr.Elem{one(a)}, true
	case argVariadic:
		if call.Ellipsis.IsValid() {
			return c.x.List(a)
		}
		var out []keyexpr.Elem
		for _, e := range args[spec.i:] {
			out = append(out, one(e))
		}
		return out, true
	case argSlice:
		return c.x.List(a)
	case argField, argFieldList:
		lit, ok := c.x.Composite(a)
		if !ok {
			return nil, false
		}
		v, ok := keyexpr.Field(lit, spec.field)
		if !ok {
			return nil, true // not set: no key there
		}
		if spec.kind == argField {
			if tv := c.pass.TypesInfo.Types[v]; tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == "" {
				return nil, true
			}
			return []keyexpr.Elem{one(v)}, true
		}
		return c.x.List(v)
	case argStreams:
		var list []keyexpr.Elem
		complete := true
		allKeys := false
		if spec.field == "" {
			list, complete = c.keysOf(call, variadic(spec.i))
		} else {
			lit, ok := c.x.Composite(a)
			if !ok {
				return nil, false
			}
			v, ok := keyexpr.Field(lit, spec.field)
			if !ok {
				return nil, true
			}
			list, complete = c.x.List(v)
			if id, ok := keyexpr.Field(lit, "ID"); ok {
				tv := c.pass.TypesInfo.Types[id]
				allKeys = tv.Value == nil || tv.Value.Kind() != constant.String || constant.StringVal(tv.Value) != ""
			}
		}
		for _, el := range list {
			if el.Loop != nil {
				return list, false
			}
		}
		if allKeys {
			return list, complete
		}
		if len(list)%2 != 0 {
			return list, false
		}
		return list[:len(list)/2], complete
	case argMapKeys:
		return c.x.MapKeys(a)
	case argPairs:
		rest := args[spec.i:]
		if call.Ellipsis.IsValid() {
			return nil, false
		}
		if len(rest) == 1 {
			t := c.pass.TypesInfo.TypeOf(rest[0])
			if t == nil {
				return nil, false
			}
			switch t.Underlying().(type) {
			case *types.Map:
				return c.x.MapKeys(rest[0])
			case *types.Slice:
				list, complete := c.x.List(rest[0])
				var out []keyexpr.Elem
				for i := 0; i < len(list); i += 2 {
					if list[i].Loop != nil {
						return out, false
					}
					out = append(out, list[i])
				}
				return out, complete && len(list)%2 == 0
			}
			return nil, false
		}
		var out []keyexpr.Elem
		for i := 0; i < len(rest); i += 2 {
			out = append(out, one(rest[i]))
		}
		return out, len(rest)%2 == 0
	}
	return nil, false
}

// fromArgv handles Do and Process: the command line is the arguments, the
// command and its key positions come from Redis's command table.
func (c *collector) fromArgv(call *ast.CallExpr, method string, argExprs []ast.Expr, spread bool) *Call {
	if spread {
		if len(argExprs) != 1 {
			return nil
		}
		lit, ok := c.x.Composite(argExprs[0])
		if !ok {
			return nil
		}
		argExprs = lit.Elts
	}
	argv := make([]rediscmd.Arg, len(argExprs))
	for i, e := range argExprs {
		if tv := c.pass.TypesInfo.Types[e]; tv.Value != nil {
			switch tv.Value.Kind() {
			case constant.String:
				argv[i] = rediscmd.Arg{Text: constant.StringVal(tv.Value), Known: true}
			case constant.Int:
				argv[i] = rediscmd.Arg{Text: tv.Value.ExactString(), Known: true}
			}
		}
	}
	cmd := rediscmd.Resolve(argv)
	if cmd == nil {
		return nil
	}
	refs, complete := cmd.Keys(argv)
	rec := &Call{Node: call, Method: method, Command: strings.ReplaceAll(cmd.Name, "|", " "), Complete: complete,
		Script: scriptCommands[cmd.Name]}
	rec.MultiKey = !complete || len(refs) > 1 || rec.Script
	if rec.Script && len(argExprs) > 1 {
		rec.Source = argExprs[1]
	}
	for _, r := range refs {
		e := argExprs[r.Index]
		rec.Keys = append(rec.Keys, keyexpr.Elem{Key: c.x.Key(e), Expr: e})
	}
	if len(refs) == 0 && !rec.Script && complete && !nodeWideCommands[rec.Command] {
		return nil
	}
	rec.readCommandLine(c.pass, argExprs[1:])
	return rec
}

// RunsPipelineBody reports whether fn calls a function it is given with a
// pipeline or transaction to queue commands on (go-redis Pipelined and
// TxPipelined).
func RunsPipelineBody(fn *types.Func) bool {
	return fn.Pkg() != nil && IsGoRedis(fn.Pkg().Path()) && (fn.Name() == "Pipelined" || fn.Name() == "TxPipelined")
}

// IsPipeline reports whether t is a pipeline or transaction type (go-redis
// Pipeliner, Pipeline or Tx): values made from a client that send on its
// connections.
func IsPipeline(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	switch n.Obj().Name() {
	case "Pipeliner", "Pipeline", "Tx":
		return true
	}
	return false
}

// ReplyPart is what a method of a command's reply value gives.
type ReplyPart uint8

const (
	// ReplyErr is the command's error alone (go-redis's Err, rueidis's and
	// valkey-go's Error): whether the command failed or the key was
	// missing, not the value.
	ReplyErr ReplyPart = iota + 1
	// ReplyResult is the value and the error (go-redis's Result).
	ReplyResult
	// ReplyValue is the value in some form (Val, Int64, Scan, …).
	ReplyValue
)

// ReplyMethod reports whether call is a method call on the reply value a
// command returns (a go-redis Cmd, or the Cmder interface; a rueidis
// RedisResult or a valkey-go ValkeyResult), and returns the command whose
// reply it is (ReplyCommand) and what the method gives.
func ReplyMethod(info *types.Info, call *ast.CallExpr) (reply ast.Expr, part ReplyPart, ok bool) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return nil, 0, false
	}
	fn, isFn := typeutil.Callee(info, call).(*types.Func)
	if !isFn || fn.Pkg() == nil {
		return nil, 0, false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return nil, 0, false
	}
	if isRueidis(fn.Pkg().Path()) {
		part, ok := rueidisResultMethod(namedOf(recv.Type()), fn.Name())
		return ReplyCommand(info, sel.X), part, ok
	}
	if !IsGoRedis(fn.Pkg().Path()) {
		return nil, 0, false
	}
	if name := namedOf(recv.Type()); !strings.HasSuffix(name, "Cmd") && name != "Cmder" {
		return nil, 0, false
	}
	reply = ast.Unparen(sel.X)
	switch fn.Name() {
	case "Err":
		return reply, ReplyErr, true
	case "Result":
		return reply, ReplyResult, true
	}
	return reply, ReplyValue, true
}

// ReplyCommand returns the command whose reply e is, as Call.Node names
// it: a go-redis command call is its own reply; rueidis's and valkey-go's
// reply is what Do or DoCache returns for the command passed to it
// (written in place: a command held in a variable is not followed).
// Otherwise e itself.
func ReplyCommand(info *types.Info, e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return e
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if ok && fn.Pkg() != nil && isRueidis(fn.Pkg().Path()) && (fn.Name() == "Do" || fn.Name() == "DoCache") && len(call.Args) >= 2 {
		return ast.Unparen(call.Args[1])
	}
	return e
}

// namedOf is the name of t's named type, or of the one it points to.
func namedOf(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}
