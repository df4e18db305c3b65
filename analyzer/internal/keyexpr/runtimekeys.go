package keyexpr

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/internal/clientpaths"
	"github.com/slotlint/slotlint/slot"
)

// RuntimePackage is the import path of slotlint's runtime, whose key
// builders are modelled here and whose operations redisapi reads as calls.
const RuntimePackage = clientpaths.Runtime

// fencePrefix starts the runtime's fencing counter keys.
const fencePrefix = "slotlint:fence:"

// runtimeKey follows the runtime's key builders: Key(family, id, parts...)
// is family + ":{" + id + "}" and ":" + part for each part, WakeKey(k) is
// k + ":wake", FencingKey(k) a key of k's slot. Key writes a
// strings.Builder and is variadic, so neither a summary nor a fact would
// follow it; without this, every runtime.Key would be an unknown value and
// its tag invisible to the rules. The runtime's own code is left as it
// is: its keys of one shard built in a loop (Drain's MGET) are co-slotted
// by a contract the key model cannot see.
func (x *Extractor) runtimeKey(fn *types.Func, call *ast.CallExpr, ev *env, depth int) (slot.Key, bool) {
	if fn.Pkg() == nil || fn.Pkg().Path() != RuntimePackage || fn.Type().(*types.Signature).Recv() != nil || x.pkg.Path() == RuntimePackage {
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
	case fn.Name() == "FencingKey" && len(call.Args) == 1:
		// The counter's tag is a short text chosen to hash to the lock
		// key's slot. Written with the lock key's hashed part as its tag,
		// the key has that slot too, and compares with the lock key's
		// other keys as the real one does; only its text differs.
		a := slot.Analyze(x.key(call.Args[0], ev, depth), slot.Options{})
		if a.Kind == slot.TagUnknown || hasBrace(a.Hashed) {
			return x.unique(call), true
		}
		return slot.Concat(slot.Literal(fencePrefix+"{"), a.Hashed, slot.Literal("}")), true
	}
	return slot.Key{}, false
}

func hasBrace(k slot.Key) bool {
	for _, p := range k.Parts() {
		if p.Hole == nil && strings.ContainsAny(p.Lit, "{}") {
			return true
		}
	}
	return false
}
