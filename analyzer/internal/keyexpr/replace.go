package keyexpr

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/slot"
)

// Queue libraries fill key templates ("q::[{queue}]::ready") with
// strings.Replace, ReplaceAll or a strings.Replacer: a template whose text
// and placeholders are constants is a key shape like a Sprintf format.

// replace follows strings.Replace, strings.ReplaceAll and
// (*strings.Replacer).Replace over a constant template.
func (x *Extractor) replace(fn *types.Func, call *ast.CallExpr, ev *env, depth int) (slot.Key, bool) {
	if fn.Pkg() == nil || fn.Pkg().Path() != "strings" {
		return slot.Key{}, false
	}
	switch {
	case fn.Name() == "ReplaceAll" && len(call.Args) == 3:
		return x.replaceN(call.Args[0], call.Args[1], call.Args[2], -1, ev, depth)
	case fn.Name() == "Replace" && len(call.Args) == 4:
		tv := x.info.Types[call.Args[3]]
		if tv.Value == nil || tv.Value.Kind() != constant.Int {
			return slot.Key{}, false
		}
		n, ok := constant.Int64Val(tv.Value)
		if !ok {
			return slot.Key{}, false
		}
		return x.replaceN(call.Args[0], call.Args[1], call.Args[2], int(n), ev, depth)
	case fn.Name() == "Replace" && len(call.Args) == 1 && isReplacerMethod(fn):
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return slot.Key{}, false
		}
		return x.replacer(sel.X, call.Args[0], ev, depth)
	}
	return slot.Key{}, false
}

func isReplacerMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil
}

// replaceN fills the first n (all when n < 0) non-overlapping occurrences
// of old in a constant template with the key of repl.
func (x *Extractor) replaceN(tmpl, old, repl ast.Expr, n int, ev *env, depth int) (slot.Key, bool) {
	t, ok := astutil.ConstString(x.info, tmpl)
	if !ok {
		return slot.Key{}, false
	}
	o, ok := astutil.ConstString(x.info, old)
	if !ok || o == "" {
		return slot.Key{}, false
	}
	r := x.key(repl, ev, depth)
	var ks []slot.Key
	for n != 0 {
		i := strings.Index(t, o)
		if i < 0 {
			break
		}
		ks = append(ks, slot.Literal(t[:i]), r)
		t = t[i+len(o):]
		n--
	}
	ks = append(ks, slot.Literal(t))
	return slot.Concat(ks...), true
}

// replacer follows r.Replace(tmpl) where r is strings.NewReplacer with
// constant old strings, directly or through a local or package variable
// assigned once. At each position of the template the first old string
// in argument order that matches is replaced, as strings.Replacer does.
func (x *Extractor) replacer(r, tmpl ast.Expr, ev *env, depth int) (slot.Key, bool) {
	t, ok := astutil.ConstString(x.info, tmpl)
	if !ok {
		return slot.Key{}, false
	}
	call, ok := ast.Unparen(x.origin(r)).(*ast.CallExpr)
	if !ok {
		return slot.Key{}, false
	}
	fn, ok := calleeFunc(x.info, call)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || fn.Name() != "NewReplacer" || call.Ellipsis.IsValid() || len(call.Args)%2 != 0 {
		return slot.Key{}, false
	}
	var olds []string
	for i := 0; i < len(call.Args); i += 2 {
		o, ok := astutil.ConstString(x.info, call.Args[i])
		if !ok || o == "" {
			return slot.Key{}, false
		}
		olds = append(olds, o)
	}
	var ks []slot.Key
	lit := strings.Builder{}
	for i := 0; i < len(t); {
		matched := false
		for j, o := range olds {
			if strings.HasPrefix(t[i:], o) {
				ks = append(ks, slot.Literal(lit.String()), x.key(call.Args[2*j+1], ev, depth))
				lit.Reset()
				i += len(o)
				matched = true
				break
			}
		}
		if !matched {
			lit.WriteByte(t[i])
			i++
		}
	}
	ks = append(ks, slot.Literal(lit.String()))
	return slot.Concat(ks...), true
}

// origin is the expression a local variable assigned once, or a
// package variable initialised once and never written in its package,
// holds; else e.
func (x *Extractor) origin(e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return e
	}
	obj, ok := x.info.Uses[id].(*types.Var)
	if !ok || obj.IsField() {
		return e
	}
	if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
		if init, ok := x.globalInit(obj); ok {
			return init
		}
		return e
	}
	return x.Origin(e)
}

// globalInit is the initial value of a package variable of this package
// that no function assigns.
func (x *Extractor) globalInit(v *types.Var) (ast.Expr, bool) {
	if v.Pkg() != x.pkg {
		return nil, false
	}
	if x.globals == nil {
		x.globals = scanGlobals(x.info, x.files)
	}
	g, ok := x.globals[v]
	return g, ok && g != nil
}

// scanGlobals maps each package variable declared with one value to that
// value, or to nil when a function writes it or takes its address.
func scanGlobals(info *types.Info, files []*ast.File) map[*types.Var]ast.Expr {
	out := map[*types.Var]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, id := range vs.Names {
					if v, ok := info.Defs[id].(*types.Var); ok {
						out[v] = vs.Values[i]
					}
				}
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			var targets []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				targets = n.Lhs
			case *ast.UnaryExpr:
				if n.Op.String() == "&" {
					targets = []ast.Expr{n.X}
				}
			case *ast.IncDecStmt:
				targets = []ast.Expr{n.X}
			}
			for _, t := range targets {
				if id, ok := ast.Unparen(t).(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok {
						if _, known := out[v]; known {
							out[v] = nil
						}
					}
				}
			}
			return true
		})
	}
	return out
}
