package luascript

import (
	"go/ast"
	"go/types"

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
	// The keys must be passed as one slice, and ARGV spread from one or
	// not passed.
	if !call.ScriptValue || call.Source == nil || call.KeysArg == nil || call.ArgvArg == nil && !(call.ArgvKnown && len(call.Argv) == 0) {
		return nil
	}
	fn, fd, calls, ok := c.callerIndex().Helper(call.Node.Pos())
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	scriptAt, keysAt, argsAt := c.paramIndex(sig, call.Source), c.paramIndex(sig, call.KeysArg), -1
	if scriptAt < 0 || keysAt < 0 || c.written(fd, sig) {
		return nil
	}
	if call.ArgvArg != nil {
		argsAt = c.paramIndex(sig, call.ArgvArg)
		if !sig.Variadic() || argsAt != sig.Params().Len()-1 {
			return nil
		}
	}
	var out []*site
	for _, cl := range calls {
		if len(cl.Args) <= scriptAt || len(cl.Args) <= keysAt {
			continue
		}
		keys, complete := c.x.List(cl.Args[keysAt])
		rec := &redisapi.Call{Node: cl, Method: call.Method, Command: call.Command, MultiKey: true, Script: true,
			ScriptValue: true, Source: cl.Args[scriptAt], Keys: keys, Complete: complete, Client: call.Client}
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
