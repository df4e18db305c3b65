package redisapi

import (
	"go/ast"
	"go/types"
)

// MultiShard lists the commands whose request policy is multi_shard in
// COMMAND INFO (Redis 7.0 and later; TestMultiShardMatchesServer checks it
// against the server), with whether each only reads. A client that follows
// request policies sends such a command once per slot of its keys, so
// keys in different slots do not fail, but the command is no longer
// atomic.
var MultiShard = map[string]bool{
	"MGET": true, "EXISTS": true, "TOUCH": true,
	"DEL": false, "UNLINK": false, "MSET": false, "MSETNX": false,
}

// splitters finds the go-redis cluster clients configured to follow the
// server's request policies: c.SetCommandInfoResolver(c.NewDynamicResolver())
// (go-redis v9.18 and later). The variable or field holding such a client
// is recorded, and so is a field or variable the configured client is then
// stored in (s.rdb = rdb, &store{rdb: rdb}).
func (c *collector) splitters(files []*ast.File) map[types.Object]bool {
	var out map[types.Object]bool
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			fn, recv, ok := c.goRedisMethod(call)
			if !ok || recv != "ClusterClient" || fn.Name() != "SetCommandInfoResolver" {
				return true
			}
			arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			if afn, _, ok := c.goRedisMethod(arg); !ok || afn.Name() != "NewDynamicResolver" {
				return true
			}
			if obj := c.clientObject(call.Fun.(*ast.SelectorExpr).X); obj != nil {
				if out == nil {
					out = map[types.Object]bool{}
				}
				out[obj] = true
			}
			return true
		})
	}
	if out == nil {
		return nil
	}
	// One step of copies: a configured local stored in a field or another
	// variable.
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, r := range n.Rhs {
						if out[c.clientObject(r)] {
							if obj := c.clientObject(n.Lhs[i]); obj != nil {
								out[obj] = true
							}
						}
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && out[c.clientObject(n.Value)] {
					if fld, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && fld.IsField() {
						out[fld] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// clientObject is the variable or field an expression reads or writes.
func (c *collector) clientObject(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj, ok := c.pass.TypesInfo.Uses[e].(*types.Var); ok {
			return obj
		}
		if obj, ok := c.pass.TypesInfo.Defs[e].(*types.Var); ok {
			return obj
		}
	case *ast.SelectorExpr:
		if obj, ok := c.pass.TypesInfo.Uses[e.Sel].(*types.Var); ok {
			return obj
		}
	}
	return nil
}

// splits reports whether a go-redis call goes through a client configured
// to split multi_shard commands per slot.
func (c *collector) splits(call *ast.CallExpr) bool {
	if len(c.splitBy) == 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && c.splitBy[c.clientObject(sel.X)]
}
