package keyexpr

import (
	"go/ast"
	"go/types"

	"github.com/slotlint/slotlint/slot"
)

// RuntimePackage is the import path of slotlint's runtime, whose key
// builders are modelled here and whose operations redisapi reads as calls.
const RuntimePackage = "github.com/slotlint/slotlint/runtime"

// runtimeKey follows the runtime's key builders: Key(family, id, parts...)
// is family + ":{" + id + "}" and ":" + part for each part, WakeKey(k) is
// k + ":wake". Key writes a strings.Builder and is variadic, so neither a
// summary nor a fact would follow it; without this, every runtime.Key
// would be an unknown value and its tag invisible to the rules.
func (x *Extractor) runtimeKey(fn *types.Func, call *ast.CallExpr, ev *env, depth int) (slot.Key, bool) {
	if fn.Pkg() == nil || fn.Pkg().Path() != RuntimePackage || fn.Type().(*types.Signature).Recv() != nil {
		return slot.Key{}, false
	}
	switch {
	case fn.Name() == "Key" && len(call.Args) >= 2:
		ks := []slot.Key{x.key(call.Args[0], ev, depth), slot.Literal(":{"), x.key(call.Args[1], ev, depth), slot.Literal("}")}
		if !call.Ellipsis.IsValid() {
			for _, p := range call.Args[2:] {
				ks = append(ks, slot.Literal(":"), x.key(p, ev, depth))
			}
			return slot.Concat(ks...), true
		}
		if len(call.Args) != 3 {
			return slot.Key{}, false
		}
		elems, complete := x.list(call.Args[2], ev, depth)
		if !complete || anyLoop(elems) {
			// Parts not known; the tag is, whatever they are.
			return slot.Concat(append(ks, x.unique(call.Args[2]))...), true
		}
		for _, el := range elems {
			ks = append(ks, slot.Literal(":"), el.Key)
		}
		return slot.Concat(ks...), true
	case fn.Name() == "WakeKey" && len(call.Args) == 1:
		return slot.Concat(x.key(call.Args[0], ev, depth), slot.Literal(":wake")), true
	}
	return slot.Key{}, false
}
