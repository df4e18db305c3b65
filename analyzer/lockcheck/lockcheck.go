package lockcheck

import (
	_ "embed"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// Analyzer reports SL1301, SL1302, SL1303, SL1304 and SL1305.
var Analyzer = &analysis.Analyzer{
	Name:     "lockcheck",
	Doc:      analyzerdoc.MustExtract(doc, "lockcheck"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/lockcheck",
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

// checker holds one package's functions and their events.
type checker struct {
	pass *analysis.Pass
	cfg  *config.Config
	r    *report.Reporter
	x    *keyexpr.Extractor
	fns  []*fn // every function, literals included
	h    *helpers
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	ids := rules.Of("lockcheck")
	r := report.New(pass, cfg, ids...)
	if len(res.Calls) == 0 || !r.Enabled(ids...) {
		return nil, nil
	}
	c := &checker{pass: pass, cfg: cfg, r: r, x: res.Keys}
	byNode := map[*ast.CallExpr]*redisapi.Call{}
	interesting := false
	for _, call := range res.Calls {
		byNode[call.Node] = call
		switch call.Command {
		case "SET", "SETNX", "SETARGS", "GET", "HGET", "INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY", "HINCRBY", "HINCRBYFLOAT":
			interesting = true
		}
	}
	if !interesting {
		return nil, nil // every rule starts from an acquisition, a read or an increment
	}
	c.collect(byNode)
	c.ttl()
	c.release()
	c.retry()
	c.lostUpdate()
	c.counterTTL()
	return nil, nil
}

// lockNames are the names under which lock libraries (runtime's
// Client.Obtain, redislock, redsync) take a lock. sync's mutexes do not
// count: they serialise one process, not the clients of one Redis.
var lockNames = map[string]bool{
	"Obtain": true, "Lock": true, "LockContext": true, "TryLock": true, "TryLockContext": true,
	"Acquire": true, "LockAndSet": true,
}

// collect builds the functions of the package with their Redis events and
// their calls of package functions.
func (c *checker) collect(byNode map[*ast.CallExpr]*redisapi.Call) {
	c.h = &helpers{pass: c.pass, x: c.x, decls: map[*types.Func]*fn{}, events: map[*types.Func][]*event{}, busy: map[*types.Func]bool{}, returns: map[*event]bool{}}
	decls, order := c.x.FuncDecls()
	for _, obj := range order {
		fd := decls[obj]
		top := &fn{pass: c.pass, body: fd.Body, typ: fd.Type, decl: obj}
		c.h.decls[obj] = top
		c.fns = append(c.fns, top)
		stack := []*fn{top}
		callbacks := map[*ast.FuncLit]callback{}
		var nodes []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				if _, ok := nodes[len(nodes)-1].(*ast.FuncLit); ok {
					stack = stack[:len(stack)-1]
				}
				nodes = nodes[:len(nodes)-1]
				return true
			}
			nodes = append(nodes, n)
			cur := stack[len(stack)-1]
			switch n := n.(type) {
			case *ast.FuncLit:
				lit := &fn{pass: c.pass, body: n.Body, typ: n.Type}
				if cb, ok := callbacks[n]; ok {
					lit.callback, lit.callbackFn = cb.call, cb.fn
				}
				cur.lits = append(cur.lits, lit)
				c.fns = append(c.fns, lit)
				stack = append(stack, lit)
			case *ast.CallExpr:
				callee, _ := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func)
				if callee != nil && redisapi.RunsPipelineBody(callee) {
					for _, a := range n.Args {
						if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
							callbacks[lit] = callback{n, callee}
						}
					}
				}
				if call, ok := byNode[n]; ok {
					cur.events = append(cur.events, classify(c.x, call)...)
				} else if callee != nil {
					if callee.Pkg() == c.pass.Pkg {
						cur.calls = append(cur.calls, n)
					}
					if lockNames[callee.Name()] && (callee.Pkg() == nil || callee.Pkg().Path() != "sync") {
						cur.locks = append(cur.locks, n)
					}
				}
			}
			return true
		})
	}
	for _, f := range c.fns {
		f.all = append(f.all, f.events...)
		for _, call := range f.calls {
			f.all = append(f.all, c.h.of(call, 0)...)
		}
	}
	// The callback of Pipelined or TxPipelined runs during that call: its
	// commands count there too, in the function around it. Reads are left
	// out (their values only exist after the pipeline ran).
	for _, f := range c.fns {
		for _, lit := range f.lits {
			if lit.callback == nil {
				continue
			}
			for _, e := range lit.all {
				if e.kind == read {
					continue
				}
				p := *e
				p.at, p.via, p.orig = lit.callback, lit.callbackFn, e.origin()
				f.all = append(f.all, &p)
			}
		}
	}
}

// callback is a function literal's call by Pipelined or TxPipelined.
type callback struct {
	call *ast.CallExpr
	fn   *types.Func
}
