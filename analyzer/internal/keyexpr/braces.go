package keyexpr

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/slot"
)

// BraceSource is where a value holding a brace is visibly given to a
// variable, field or parameter: the text, and the place it is given.
type BraceSource struct {
	Text string
	Pos  token.Pos
}

// BracedHole reports whether a value holding '{' or '}' visibly reaches the
// variable, field or parameter hole h reads: a constant with a brace
// assigned to it, set in a composite literal, passed for it to a function
// of this package, or given to a field or variable through a parameter
// that receives one. A configurable prefix read from elsewhere stays
// unknown; this is the case where the code itself shows the brace.
func (x *Extractor) BracedHole(h slot.Hole) (types.Object, BraceSource, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	id, ok := idOf(h)
	if !ok {
		return nil, BraceSource{}, false
	}
	obj, ok := x.holeObj[id]
	if !ok {
		return nil, BraceSource{}, false
	}
	if x.braced == nil {
		x.braced = x.scanBraced()
	}
	src, ok := x.braced[obj]
	return obj, src, ok
}

// maxBraceRounds bounds how many hand-overs (a parameter set from a
// constant, a field from that parameter, ...) are followed.
const maxBraceRounds = 4

// scanBraced finds the variables, fields and parameters of the package
// that a value with a brace reaches.
func (x *Extractor) scanBraced() map[types.Object]BraceSource {
	out := map[types.Object]BraceSource{}
	for range maxBraceRounds {
		before := len(out)
		for _, f := range x.files {
			x.scanBracedFile(f, out)
		}
		if len(out) == before {
			break
		}
	}
	return out
}

func (x *Extractor) scanBracedFile(f *ast.File, out map[types.Object]BraceSource) {
	mark := func(obj types.Object, e ast.Expr) {
		if obj == nil {
			return
		}
		if _, done := out[obj]; done {
			return
		}
		if src, ok := x.bracedExpr(e, out); ok {
			out[obj] = src
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) && len(n.Values) == len(n.Names) {
					mark(x.info.Defs[id], n.Values[i])
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				mark(x.assigned(l), n.Rhs[i])
			}
		case *ast.CompositeLit:
			if _, ok := structOf(x.info.TypeOf(n)); !ok {
				return true
			}
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						mark(x.info.Uses[id], kv.Value)
					}
				}
			}
		case *ast.CallExpr:
			fn, ok := calleeFunc(x.info, n)
			if !ok || fn.Pkg() != x.pkg || n.Ellipsis.IsValid() {
				return true
			}
			sig := fn.Type().(*types.Signature)
			for i, a := range n.Args {
				if i < sig.Params().Len() && !(sig.Variadic() && i >= sig.Params().Len()-1) {
					mark(sig.Params().At(i), a)
				}
			}
		}
		return true
	})
}

// assigned is the variable or field an assignment's left side names.
func (x *Extractor) assigned(l ast.Expr) types.Object {
	switch l := ast.Unparen(l).(type) {
	case *ast.Ident:
		if obj := x.info.Defs[l]; obj != nil {
			return obj
		}
		return x.info.Uses[l]
	case *ast.SelectorExpr:
		if sel, ok := x.info.Selections[l]; ok && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		return x.info.Uses[l.Sel]
	}
	return nil
}

// bracedExpr reports whether string expression e holds a brace: a
// constant with one, a concatenation with such a part, or a variable or
// parameter already known to hold one.
func (x *Extractor) bracedExpr(e ast.Expr, known map[types.Object]BraceSource) (BraceSource, bool) {
	if t := x.info.TypeOf(e); t == nil || !astutil.IsString(t) {
		return BraceSource{}, false
	}
	if tv := x.info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		s := constant.StringVal(tv.Value)
		if strings.ContainsAny(s, "{}") {
			return BraceSource{Text: s, Pos: e.Pos()}, true
		}
		return BraceSource{}, false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			if src, ok := x.bracedExpr(e.X, known); ok {
				return src, true
			}
			return x.bracedExpr(e.Y, known)
		}
	case *ast.Ident:
		if obj := x.info.Uses[e]; obj != nil {
			src, ok := known[obj]
			return src, ok
		}
	case *ast.SelectorExpr:
		if obj := x.info.Uses[e.Sel]; obj != nil {
			src, ok := known[obj]
			return src, ok
		}
	}
	return BraceSource{}, false
}
