// Package callers judges keys built from a function's parameters at every
// call of that function: a helper that sends a command or runs a script
// for keys its callers build is as right as what they pass. Only helpers
// whose every call is in sight are judged: unexported, only ever called
// (never used as a value), and not a method an interface of the package
// may reach.
package callers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/slot"
)

// MaxCalls bounds how many calls of a helper are read to judge its keys.
const MaxCalls = 64

// Index finds the function that encloses a position and the static calls
// of each function of the package.
type Index struct {
	pass *analysis.Pass
	x    *keyexpr.Extractor
	// decls are the package's function declarations, in source order.
	decls []*ast.FuncDecl
	calls map[*types.Func][]*ast.CallExpr
	// escaped functions are used other than by calling them (a method
	// value, a function passed as an argument): their callers are not all
	// in sight.
	escaped map[*types.Func]bool
	// ifaceNames are the names of interface methods declared in the
	// package: an unexported method of that name may be called through an
	// interface.
	ifaceNames map[string]bool
}

// New indexes the package's functions and their calls.
func New(pass *analysis.Pass, x *keyexpr.Extractor) *Index {
	info := pass.TypesInfo
	ix := &Index{pass: pass, x: x, calls: map[*types.Func][]*ast.CallExpr{}, escaped: map[*types.Func]bool{}, ifaceNames: map[string]bool{}}
	decls, order := x.FuncDecls()
	for _, fn := range order {
		ix.decls = append(ix.decls, decls[fn])
	}
	called := map[*ast.Ident]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				var id *ast.Ident
				switch fun := ast.Unparen(n.Fun).(type) {
				case *ast.Ident:
					id = fun
				case *ast.SelectorExpr:
					id = fun.Sel
				}
				if fn, ok := info.Uses[id].(*types.Func); ok && id != nil {
					called[id] = true
					ix.calls[fn] = append(ix.calls[fn], n)
				}
			case *ast.InterfaceType:
				for _, m := range n.Methods.List {
					for _, name := range m.Names {
						ix.ifaceNames[name.Name] = true
					}
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && !called[id] {
			ix.escaped[fn] = true
		}
	}
	return ix
}

// Enclosing is the function declaration a position is in.
func (ix *Index) Enclosing(pos token.Pos) *ast.FuncDecl {
	for _, fd := range ix.decls {
		if fd.Pos() <= pos && pos < fd.End() {
			return fd
		}
	}
	return nil
}

// Helper is the function declaration enclosing pos and its calls, when
// every call of it is in sight (at most MaxCalls of them).
func (ix *Index) Helper(pos token.Pos) (*types.Func, *ast.FuncDecl, []*ast.CallExpr, bool) {
	fd := ix.Enclosing(pos)
	if fd == nil {
		return nil, nil, nil, false
	}
	fn, _ := ix.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Exported() || ix.escaped[fn] || fd.Recv != nil && ix.ifaceNames[fn.Name()] {
		return nil, nil, nil, false
	}
	calls := ix.calls[fn]
	if len(calls) > MaxCalls {
		return nil, nil, nil, false
	}
	return fn, fd, calls, true
}

// Bound is one call of a helper with its parameters bound to the keys the
// call passes; Unbound when they cannot be (a spread call, too few
// arguments).
type Bound struct {
	Call    *ast.CallExpr
	Unbound bool
	params  map[slot.HoleID]int
	args    map[int]slot.Key
}

// Subst is k with the helper's parameters replaced by what the call
// passes.
func (b Bound) Subst(k slot.Key) slot.Key {
	return k.Substitute(func(h slot.Hole) (slot.Key, bool) {
		i, ok := b.params[h.ID]
		if !ok {
			return slot.Key{}, false
		}
		return b.args[i], true
	})
}

// Describe names the call for a message, with what it passes for the
// first parameter key is built from: "called at f.go:12 with id = u.ID".
func (b Bound) Describe(fset *token.FileSet, k slot.Key) string {
	p := fset.Position(b.Call.Pos())
	s := fmt.Sprintf("called at %s:%d", filepath.Base(p.Filename), p.Line)
	if param, arg := b.ParamOf(k); param != "" {
		s += fmt.Sprintf(" with %s = %s", param, arg)
	}
	return s
}

// ParamOf names the first parameter k is built from and the argument the
// call passes for it; "" when none.
func (b Bound) ParamOf(k slot.Key) (param, arg string) {
	for _, h := range k.Holes() {
		if i, ok := b.params[h.ID]; ok && i < len(b.Call.Args) {
			return h.Label, types.ExprString(b.Call.Args[i])
		}
	}
	return "", ""
}

// Each gives fn every call of the helper enclosing at with the helper's
// parameters bound, once per element when an argument is the variable of
// a range over a list of keys in sight (for _, k := range []string{a, b}
// { f(k) }), until fn returns false. It returns false, calling nothing,
// when none of keys is built from the helper's parameters or when the
// helper's calls are not all in sight or there are none.
func (ix *Index) Each(at token.Pos, keys []slot.Key, fn func(Bound) bool) bool {
	helper, _, calls, ok := ix.Helper(at)
	if !ok || len(calls) == 0 {
		return false
	}
	sig := helper.Type().(*types.Signature)
	params := map[slot.HoleID]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		params[ix.x.VarHole(sig.Params().At(i))] = i
	}
	uses := false
	for _, k := range keys {
		for _, h := range k.Holes() {
			if _, ok := params[h.ID]; ok {
				uses = true
			}
		}
	}
	if !uses {
		return false
	}
	for _, call := range calls {
		if call.Ellipsis.IsValid() || len(call.Args) < len(params) {
			if !fn(Bound{Call: call, Unbound: true}) {
				return true
			}
			continue
		}
		for _, args := range ix.argChoices(call, len(params)) {
			if !fn(Bound{Call: call, params: params, args: args}) {
				return true
			}
		}
	}
	return true
}

// argChoices are the keys a call passes for the helper's first n
// parameters, one set per element when an argument is the variable of a
// range over a list of keys in sight.
func (ix *Index) argChoices(call *ast.CallExpr, n int) []map[int]slot.Key {
	base := map[int]slot.Key{}
	ranged := -1
	var elems []keyexpr.Elem
	for i := 0; i < n && i < len(call.Args); i++ {
		arg := call.Args[i]
		if list, ok := ix.rangeElems(arg); ok && ranged < 0 {
			ranged, elems = i, list
			continue
		}
		base[i] = ix.x.Key(arg)
	}
	if ranged < 0 {
		return []map[int]slot.Key{base}
	}
	out := make([]map[int]slot.Key, 0, len(elems))
	for _, el := range elems {
		m := make(map[int]slot.Key, len(base)+1)
		for i, k := range base {
			m[i] = k
		}
		m[ranged] = el.Key
		out = append(out, m)
	}
	return out
}

// rangeElems: e names the value variable of a range over a list whose
// every element is in sight.
func (ix *Index) rangeElems(e ast.Expr) ([]keyexpr.Elem, bool) {
	v, ok := ix.x.Var(e)
	if !ok {
		return nil, false
	}
	rs := ix.rangeOf(v)
	if rs == nil {
		return nil, false
	}
	list, complete := ix.x.List(rs.X)
	if !complete || len(list) == 0 {
		return nil, false
	}
	for _, el := range list {
		if el.Loop != nil {
			return nil, false
		}
	}
	return list, true
}

// rangeOf is the range statement that declares v as its value variable,
// when v is never assigned in the loop.
func (ix *Index) rangeOf(v *types.Var) *ast.RangeStmt {
	fd := ix.Enclosing(v.Pos())
	if fd == nil {
		return nil
	}
	info := ix.pass.TypesInfo
	var found *ast.RangeStmt
	written := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			if id, ok := n.Value.(*ast.Ident); ok && n.Tok == token.DEFINE && info.Defs[id] == v {
				found = n
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Uses[id] == v {
					written = true
				}
			}
		case *ast.UnaryExpr:
			if id, ok := n.X.(*ast.Ident); ok && n.Op == token.AND && info.Uses[id] == v {
				written = true
			}
		}
		return true
	})
	if written {
		return nil
	}
	return found
}
