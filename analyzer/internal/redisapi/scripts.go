package redisapi

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// ScriptDef is a script made in Go code: a script value created from its
// text, or a Functions library loaded with FUNCTION LOAD. Rules check the
// text whether the script is run in the package or not.
type ScriptDef struct {
	Node *ast.CallExpr
	// Text is the argument that holds the script's or library's text.
	Text ast.Expr
	// Library: the text is a Functions library (FUNCTION LOAD).
	Library bool
}

// DefinedScript reports whether call creates a script value or loads a
// Functions library with a client whose front end knows how, and where
// its text is.
func DefinedScript(info *types.Info, call *ast.CallExpr) (ScriptDef, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return ScriptDef{}, false
	}
	path := fn.Pkg().Path()
	for _, fe := range frontEnds {
		if fe.defines != nil && slices.Contains(fe.roots, path) {
			if text, library, ok := fe.defines(fn, call); ok {
				return ScriptDef{Node: call, Text: text, Library: library}, true
			}
		}
	}
	return ScriptDef{}, false
}

// ScriptDefs returns the scripts the package creates or loads, in source
// order.
func (r *Result) ScriptDefs() []ScriptDef {
	if r.ins == nil {
		return nil
	}
	var out []ScriptDef
	r.ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		if d, ok := DefinedScript(r.info, n.(*ast.CallExpr)); ok {
			out = append(out, d)
		}
	})
	return out
}

// goRedisScript: NewScript(src) and NewScriptServerSHA(src) make a
// Script; FunctionLoad(ctx, lib) and FunctionLoadReplace(ctx, lib), on
// any go-redis value, load a library.
func goRedisScript(fn *types.Func, call *ast.CallExpr) (ast.Expr, bool, bool) {
	switch name := fn.Name(); {
	case (name == "NewScript" || name == "NewScriptServerSHA") && len(call.Args) == 1:
		return call.Args[0], false, true
	case (name == "FunctionLoad" || name == "FunctionLoadReplace") && len(call.Args) == 2:
		return call.Args[1], true, true
	}
	return nil, false, false
}

// rueidisScript: NewLuaScript(src, ...) and its variants (ReadOnly, NoSha,
// Retryable) make a *Lua, in rueidis and valkey-go alike.
func rueidisScript(fn *types.Func, call *ast.CallExpr) (ast.Expr, bool, bool) {
	if strings.HasPrefix(fn.Name(), "NewLuaScript") && fn.Type().(*types.Signature).Recv() == nil && len(call.Args) >= 1 {
		return call.Args[0], false, true
	}
	return nil, false, false
}

// redigoScript: NewScript(keyCount, src) makes a Script.
func redigoScript(fn *types.Func, call *ast.CallExpr) (ast.Expr, bool, bool) {
	if fn.Name() == "NewScript" && fn.Type().(*types.Signature).Recv() == nil && len(call.Args) == 2 {
		return call.Args[1], false, true
	}
	return nil, false, false
}
