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

// splitter notes a call c.SetCommandInfoResolver(c.NewDynamicResolver())
// (go-redis v9.18 and later): the variable or field holding c is a cluster
// client that follows the server's request policies.
func (c *collector) splitter(call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "SetCommandInfoResolver" || len(call.Args) != 1 {
		return
	}
	fn, recv, ok := c.goRedisMethod(call)
	if !ok || recv != "ClusterClient" || fn.Name() != "SetCommandInfoResolver" {
		return
	}
	arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	if afn, _, ok := c.goRedisMethod(arg); !ok || afn.Name() != "NewDynamicResolver" {
		return
	}
	if obj := c.clientObject(sel.X); obj != nil {
		if c.splitBy == nil {
			c.splitBy = map[types.Object]bool{}
		}
		c.splitBy[obj] = true
	}
}

// storedSplitters adds, after splitter, one step of copies: a configured
// client stored in a field or another variable (s.rdb = rdb,
// &store{rdb: rdb}).
func (c *collector) storedSplitters(files []*ast.File) {
	if len(c.splitBy) == 0 {
		return
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, r := range n.Rhs {
						if c.splitBy[c.clientObject(r)] {
							if obj := c.clientObject(n.Lhs[i]); obj != nil {
								c.splitBy[obj] = true
							}
						}
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && c.splitBy[c.clientObject(n.Value)] {
					if fld, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && fld.IsField() {
						c.splitBy[fld] = true
					}
				}
			}
			return true
		})
	}
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
