package redisapi

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/internal/clientpaths"
	"github.com/slotlint/slotlint/slot"
)

// runtimePaths is slotlint's runtime, read as one more client: its
// operations take keys as a client's methods do, and fail with
// ErrCrossSlot at run time when the keys break the rules its docs state.
var runtimePaths = clientpaths.RuntimePaths

// runtimeOp is one operation of the runtime's Client that takes keys.
type runtimeOp struct {
	keys []argSpec
	// lock: the first key is a lock key, whose wake-up list the runtime
	// keeps at key + ":wake" and needs in the key's slot, which only a
	// hash tag of the key itself gives (runtime.Obtain's ErrCrossSlot).
	lock bool
}

// runtimeOps are the runtime's operations with keys, by method of
// *runtime.Client, as runtime/doc.go and docs/runtime.md describe them;
// the keys of one operation must share a slot.
var runtimeOps = map[string]runtimeOp{
	"Obtain":               {keys: []argSpec{key(1)}, lock: true},
	"LockAndSet":           {keys: []argSpec{key(1), field(3, "Key")}, lock: true},
	"MaxUpdate":            {keys: []argSpec{key(1), key(2)}},
	"DecrementIfAvailable": {keys: []argSpec{key(1)}},
	"IssueOnce":            {keys: []argSpec{key(1)}},
	"IncrWindow":           {keys: []argSpec{key(1)}},
}

// wakeSuffix is what the runtime appends to a lock key for the lock's
// wake-up list (runtime.WakeKey).
const wakeSuffix = ":wake"

// collectRuntime reads calls of the runtime's operations. The runtime's
// own packages are left out: its tests pass bad keys on purpose, to check
// the errors it returns for them.
func collectRuntime(pass *analysis.Pass, x *keyexpr.Extractor, res *Result) {
	if path := pass.Pkg.Path(); path == keyexpr.RuntimePackage || path == keyexpr.RuntimePackage+"_test" {
		return
	}
	c := &collector{pass: pass, x: x, res: res}
	ins := res.ins
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		name, ok := runtimeMethod(pass.TypesInfo, call)
		if !ok {
			return
		}
		op, ok := runtimeOps[name]
		if !ok {
			return
		}
		rec := &Call{Node: call, Method: "Client." + name, Command: name, Complete: true, Client: RuntimeClient}
		for _, spec := range op.keys {
			ks, complete := c.keysOf(call, spec)
			rec.Keys = append(rec.Keys, ks...)
			rec.Complete = rec.Complete && complete
		}
		rec.MultiKey = len(op.keys) > 1
		if op.lock && len(rec.Keys) > 0 {
			lock := rec.Keys[0]
			rec.Companions = []Companion{{Of: lock, Key: slot.Concat(lock.Key, slot.Literal(wakeSuffix)), What: "wake-up list"}}
		}
		res.Calls = append(res.Calls, rec)
	})
}

// runtimeMethod names the method of *runtime.Client a call invokes.
func runtimeMethod(info *types.Info, call *ast.CallExpr) (string, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != keyexpr.RuntimePackage {
		return "", false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return "", false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); !ok || n.Obj().Name() != "Client" {
		return "", false
	}
	return fn.Name(), true
}
