package keyexpr

import (
	"go/ast"
	"go/types"

	"github.com/slotlint/slotlint/slot"
)

// ParamKey returns the key of e, an expression in fn's body, in terms of
// fn's parameters and receiver: what a summary of fn records, so each
// caller can bind its own arguments (BindCall).
func (x *Extractor) ParamKey(fn *types.Func, e ast.Expr) slot.Key {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.key(e, x.paramEnv(fn), 0)
}

// FactParts converts a key in terms of parameters (ParamKey) to the parts
// a fact carries: parameters, the receiver's values and package-level
// variables keep their identity, any other value becomes opaque.
func FactParts(k slot.Key) ([]FactPart, bool) {
	f, ok := factOf(k)
	if !ok {
		return nil, false
	}
	return f.Parts, true
}

// PartsString renders fact parts as a key, for a fact's String method.
func PartsString(parts []FactPart) string {
	return (&KeyFunc{Parts: parts}).key(nil).String()
}

// BindCall gives the parts recorded for callee the arguments of call. With
// in set, call is in in's body and the result is in terms of in's
// parameters (a summary built from another); otherwise it is the caller's
// key. ok is false when the arguments cannot be matched to the parameters
// (a variadic callee or a spread argument).
func (x *Extractor) BindCall(parts []FactPart, callee *types.Func, call *ast.CallExpr, in *types.Func) (slot.Key, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var ev *env
	if in != nil {
		ev = x.paramEnv(in)
	}
	return x.bind((&KeyFunc{Parts: parts}).key(nil), callee, call, ev, 0)
}
