package luascript

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/slot"
)

// maxCallers bounds how many call sites of a helper are read to judge one
// script key built from the helper's parameters.
const maxCallers = 64

// callerIndex finds the functions that enclose script calls and the
// static calls of each function in the package.
type callerIndex struct {
	// decls are the package's function declarations, from keyexpr's
	// index, in source order.
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

func (c *checker) callerIndex() *callerIndex {
	if c.callers != nil {
		return c.callers
	}
	info := c.pass.TypesInfo
	ix := &callerIndex{calls: map[*types.Func][]*ast.CallExpr{}, escaped: map[*types.Func]bool{}, ifaceNames: map[string]bool{}}
	decls, order := c.x.FuncDecls()
	for _, fn := range order {
		ix.decls = append(ix.decls, decls[fn])
	}
	called := map[*ast.Ident]bool{}
	for _, f := range c.pass.Files {
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
	c.callers = ix
	return ix
}

// enclosing is the function declaration a position is in.
func (ix *callerIndex) enclosing(pos token.Pos) *ast.FuncDecl {
	for _, fd := range ix.decls {
		if fd.Pos() <= pos && pos < fd.End() {
			return fd
		}
	}
	return nil
}

// callerBinding is a finding's key and its anchor judged at one call of
// the helper whose parameters they are built from.
type callerBinding struct {
	call *ast.CallExpr
	rel  slot.Relation
	// param and arg name the helper's parameter the anchor is built from
	// and what this caller passes for it.
	param, arg string
}

// judgeAtCallers judges a script key and the KEYS entry it is compared
// with, both built from parameters of the function that runs the script,
// at every call of that function: a helper runs the script for keys its
// callers build. It returns the first call at which the two may be in
// different slots, and whether every caller was in sight (an unexported
// function, only ever called, with at least one call). ok is false when
// the key and anchor do not depend on the helper's parameters.
func (c *checker) judgeAtCallers(at token.Pos, key, anchor slot.Key) (bad *callerBinding, ok bool) {
	ix := c.callerIndex()
	fd := ix.enclosing(at)
	if fd == nil {
		return nil, false
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Exported() || ix.escaped[fn] || fd.Recv != nil && ix.ifaceNames[fn.Name()] {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	params := map[slot.HoleID]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		params[c.x.VarHole(sig.Params().At(i))] = i
	}
	uses := func(k slot.Key) bool {
		for _, h := range k.Holes() {
			if _, ok := params[h.ID]; ok {
				return true
			}
		}
		return false
	}
	if !uses(key) && !uses(anchor) {
		return nil, false
	}
	calls := ix.calls[fn]
	if len(calls) == 0 || len(calls) > maxCallers {
		return nil, false
	}
	for _, call := range calls {
		if call.Ellipsis.IsValid() || len(call.Args) < len(params) {
			return &callerBinding{call: call}, true
		}
		for _, args := range c.argChoices(call, params) {
			bind := func(h slot.Hole) (slot.Key, bool) {
				i, ok := params[h.ID]
				if !ok {
					return slot.Key{}, false
				}
				return args[i], true
			}
			rel := slot.Relate(key.Substitute(bind), anchor.Substitute(bind), c.cfg.Slot)
			if rel.Kind != slot.SameSlot {
				b := &callerBinding{call: call, rel: rel}
				for _, h := range anchor.Holes() {
					if i, ok := params[h.ID]; ok {
						b.param, b.arg = h.Label, types.ExprString(call.Args[i])
						break
					}
				}
				return b, true
			}
		}
	}
	return nil, true
}

// argChoices are the keys a call passes for the helper's parameters, one
// set per element when an argument is the variable of a range over a
// list of keys in sight (for _, k := range []string{a, b} { f(k) }).
func (c *checker) argChoices(call *ast.CallExpr, params map[slot.HoleID]int) []map[int]slot.Key {
	// params holds the helper's parameters before a variadic one, indexed
	// from 0.
	base := map[int]slot.Key{}
	ranged := -1
	var elems []keyexpr.Elem
	for i := 0; i < len(params) && i < len(call.Args); i++ {
		arg := call.Args[i]
		if list, ok := c.rangeElems(arg); ok && ranged < 0 {
			ranged, elems = i, list
			continue
		}
		base[i] = c.x.Key(arg)
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
func (c *checker) rangeElems(e ast.Expr) ([]keyexpr.Elem, bool) {
	v, ok := c.x.Var(e)
	if !ok {
		return nil, false
	}
	rs := c.rangeOf(v)
	if rs == nil {
		return nil, false
	}
	list, complete := c.x.List(rs.X)
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
func (c *checker) rangeOf(v *types.Var) *ast.RangeStmt {
	fd := c.callerIndex().enclosing(v.Pos())
	if fd == nil {
		return nil
	}
	var found *ast.RangeStmt
	written := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			if id, ok := n.Value.(*ast.Ident); ok && n.Tok == token.DEFINE && c.pass.TypesInfo.Defs[id] == v {
				found = n
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
					written = true
				}
			}
		case *ast.UnaryExpr:
			if id, ok := n.X.(*ast.Ident); ok && n.Op == token.AND && c.pass.TypesInfo.Uses[id] == v {
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

// describe names the call a helper was judged at, for a message.
func (c *checker) describe(b *callerBinding) string {
	p := c.pass.Fset.Position(b.call.Pos())
	s := fmt.Sprintf("called at %s:%d", filepath.Base(p.Filename), p.Line)
	if b.param != "" {
		s += fmt.Sprintf(" with %s = %s", b.param, b.arg)
	}
	return s
}

// judgeFurther judges a script key that does not provably share its
// anchor's slot with what the call site alone shows: for each value a
// local anchor variable may hold, and, for keys built from the parameters
// of a helper that runs the script, with what each of its callers passes.
// quiet is true when every one shares the slot; otherwise at names the
// caller that does not, if any.
func (c *checker) judgeFurther(st *site, key slot.Key, anchor keyexpr.Elem) (at string, quiet bool) {
	pairs := [][2]slot.Key{{key, anchor.Key}}
	if h, ok := anchor.Key.SoleHole(); ok {
		if vals, ok := c.x.Values(anchor.Expr); ok {
			id := h.ID
			pairs = pairs[:0]
			for _, v := range vals {
				vk := c.x.Key(v)
				bind := func(h slot.Hole) (slot.Key, bool) { return vk, h.ID == id }
				pairs = append(pairs, [2]slot.Key{key.Substitute(bind), vk})
			}
		}
	}
	for _, p := range pairs {
		if slot.Relate(p[0], p[1], c.cfg.Slot).Kind == slot.SameSlot {
			continue
		}
		// Keys built from the parameters of a helper that runs the script
		// are judged with what each of its callers passes.
		bad, ok := c.judgeAtCallers(st.call.Node.Pos(), p[0], p[1])
		if !ok {
			return "", false
		}
		if bad != nil {
			return "; " + c.describe(bad), false
		}
	}
	return "", true
}
