package luascript

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
)

// runnerSites reads a helper that runs the script it is given
// (func (r *R) run(ctx, s *redis.Script, keys []string, args ...any) {
// s.Run(ctx, r.c, keys, args...) }) as a script call at each of its calls
// in the package, with that caller's script, keys and arguments: queue
// libraries run all their scripts through one such helper.
func (c *checker) runnerSites(call *redisapi.Call) []*site {
	if call.Client != redisapi.GoRedisClient || !strings.HasPrefix(call.Method, "Script.") || call.Source == nil {
		return nil
	}
	args := call.Node.Args
	if len(args) < 3 || len(args) > 4 || len(args) == 4 && !call.Node.Ellipsis.IsValid() {
		return nil
	}
	ix := c.callerIndex()
	fd := ix.enclosing(call.Node.Pos())
	if fd == nil {
		return nil
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Exported() || ix.escaped[fn] || fd.Recv != nil && ix.ifaceNames[fn.Name()] {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	scriptAt, keysAt, argsAt := c.paramIndex(sig, call.Source), c.paramIndex(sig, args[2]), -1
	if scriptAt < 0 || keysAt < 0 || c.written(fd, sig) {
		return nil
	}
	if len(args) == 4 {
		argsAt = c.paramIndex(sig, args[3])
		if !sig.Variadic() || argsAt != sig.Params().Len()-1 {
			return nil
		}
	}
	calls := ix.calls[fn]
	if len(calls) > maxCallers {
		return nil
	}
	var out []*site
	for _, cl := range calls {
		if len(cl.Args) <= scriptAt || len(cl.Args) <= keysAt {
			continue
		}
		keys, complete := c.x.List(cl.Args[keysAt])
		rec := &redisapi.Call{Node: cl, Method: call.Method, Command: call.Command, MultiKey: true, Script: true,
			Source: cl.Args[scriptAt], Keys: keys, Complete: complete, Client: call.Client}
		switch {
		case argsAt < 0:
			rec.ArgvKnown = true
		case !cl.Ellipsis.IsValid():
			rec.Argv, rec.ArgvKnown = cl.Args[argsAt:], true
		case len(cl.Args) == argsAt+1:
			list, ok := c.x.List(cl.Args[argsAt])
			if ok && !anyLoop(list) {
				for _, el := range list {
					rec.Argv = append(rec.Argv, el.Expr)
				}
				rec.ArgvKnown = true
			}
		}
		out = append(out, c.sites(rec)...)
	}
	return out
}

// paramIndex is the index of the parameter e names, or -1.
func (c *checker) paramIndex(sig *types.Signature, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if c.pass.TypesInfo.Uses[id] == sig.Params().At(i) {
			return i
		}
	}
	return -1
}

// written reports whether the function assigns to one of its parameters
// or takes a parameter's address: the helper then may not run what its
// caller gave it.
func (c *checker) written(fd *ast.FuncDecl, sig *types.Signature) bool {
	isParam := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		for i := 0; ok && i < sig.Params().Len(); i++ {
			if sig.Params().At(i) == v {
				return true
			}
		}
		return false
	}
	return astutil.AssignedIn(fd.Body, true, isParam)
}

func anyLoop(list []keyexpr.Elem) bool {
	for _, el := range list {
		if el.Loop != nil || el.Expr == nil {
			return true
		}
	}
	return false
}
