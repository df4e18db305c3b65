package keyexpr

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/slot"
)

// Libraries hold their keys in struct fields: a constructor sets
// q.setKey = prefix + name + ":set" once, or a method returns a struct of
// keys built from its argument. Two kinds of field values are followed:
//
//   - an unexported string field that every write in its package sets from
//     the same expression in one function: its key is that expression with
//     the writer's parameters and locals named after the struct value, so
//     two fields set by one constructor call share their holes;
//   - a field of a struct value whose origin is in sight: a composite
//     literal, or a function whose every return is one.

// fieldWrite is one place a struct field is given a value.
type fieldWrite struct {
	rhs ast.Expr
	fn  *ast.FuncDecl // the function holding the write; nil in a closure or at package level
}

// fieldScan records, once per package, the writes of struct fields and
// the local struct variables changed field by field.
type fieldScan struct {
	writes map[*types.Var][]fieldWrite
	// unknown fields are written in a way not followed (address taken,
	// +=, a multi-value assignment).
	unknown map[*types.Var]bool
	// mutated locals have a field assigned or a pointer method called:
	// their initial composite literal does not tell their fields.
	mutated map[*types.Var]bool
}

func scanFields(info *types.Info, files []*ast.File) *fieldScan {
	s := &fieldScan{writes: map[*types.Var][]fieldWrite{}, unknown: map[*types.Var]bool{}, mutated: map[*types.Var]bool{}}
	for _, file := range files {
		var fns []*ast.FuncDecl
		depth := 0 // FuncLits inside the current FuncDecl
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				switch stack[len(stack)-1].(type) {
				case *ast.FuncDecl:
					fns = fns[:len(fns)-1]
				case *ast.FuncLit:
					depth--
				}
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			var fn *ast.FuncDecl
			if len(fns) > 0 && depth == 0 {
				fn = fns[len(fns)-1]
			}
			switch n := n.(type) {
			case *ast.FuncDecl:
				fns = append(fns, n)
			case *ast.FuncLit:
				depth++
			case *ast.CompositeLit:
				s.literal(info, n, fn)
			case *ast.AssignStmt:
				s.assign(info, n, fn)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if f, ok := fieldOf(info, n.X); ok {
						s.unknown[f] = true
					}
					s.mutate(info, n.X)
				}
			case *ast.SelectorExpr:
				if sel, ok := info.Selections[n]; ok && sel.Kind() == types.MethodVal {
					if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
						if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
							s.mutate(info, n.X)
						}
					}
				}
			}
			return true
		})
	}
	return s
}

func (s *fieldScan) literal(info *types.Info, lit *ast.CompositeLit, fn *ast.FuncDecl) {
	st, ok := structOf(info.TypeOf(lit))
	if !ok {
		return
	}
	// Fields of anonymous structs are test tables and one-off records:
	// their few literal values are examples, not a design.
	anonymous := !isNamed(info.TypeOf(lit))
	for i, el := range lit.Elts {
		if anonymous {
			if i < st.NumFields() {
				s.unknown[st.Field(i)] = true
			}
			continue
		}
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			id, ok := kv.Key.(*ast.Ident)
			if !ok {
				continue
			}
			if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
				s.writes[f] = append(s.writes[f], fieldWrite{rhs: kv.Value, fn: fn})
			}
			continue
		}
		if i < st.NumFields() {
			s.writes[st.Field(i)] = append(s.writes[st.Field(i)], fieldWrite{rhs: el, fn: fn})
		}
	}
}

func (s *fieldScan) assign(info *types.Info, as *ast.AssignStmt, fn *ast.FuncDecl) {
	for i, lhs := range as.Lhs {
		f, ok := fieldOf(info, lhs)
		if !ok {
			continue
		}
		s.mutate(info, lhs)
		sel := info.Selections[ast.Unparen(lhs).(*ast.SelectorExpr)]
		if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) || !isNamed(sel.Recv()) {
			s.unknown[f] = true
			continue
		}
		s.writes[f] = append(s.writes[f], fieldWrite{rhs: as.Rhs[i], fn: fn})
	}
}

// mutate marks the local variable at the root of a selector chain.
func (s *fieldScan) mutate(info *types.Info, e ast.Expr) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := objVar(info, id); ok {
				s.mutated[v] = true
			}
		}
		return
	}
	for {
		inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
		if !ok {
			break
		}
		sel = inner
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
		if v, ok := objVar(info, id); ok {
			s.mutated[v] = true
		}
	}
}

// fieldOf returns the field a selector expression reads or writes.
func fieldOf(info *types.Info, e ast.Expr) (*types.Var, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil, false
	}
	f, ok := s.Obj().(*types.Var)
	return f, ok
}

// isNamed reports whether t or *t is a named type.
func isNamed(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}

// structOf returns the struct type behind t or *t.
func structOf(t types.Type) (*types.Struct, bool) {
	if t == nil {
		return nil, false
	}
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := types.Unalias(t).Underlying().(*types.Struct)
	return st, ok
}

// fieldSummary is the key an unexported string field holds, in terms of
// the struct value "recv": the writer's holes become recv.w:<writer>/<id>.
func (x *Extractor) fieldSummary(f *types.Var, depth int) (slot.Key, bool) {
	if s, ok := x.fieldSums[f]; ok {
		return s.key, s.ok && !s.pending
	}
	if f.Pkg() != x.pkg || f.Exported() || !astutil.IsString(f.Type()) || depth > maxDepth {
		return slot.Key{}, false
	}
	ws := x.fields().writes[f]
	if len(ws) == 0 || x.fields().unknown[f] {
		return slot.Key{}, false
	}
	s := &sum{pending: true}
	x.fieldSums[f] = s
	defer func() { s.pending = false }()
	var key slot.Key
	for i, w := range ws {
		if w.fn == nil || w.fn != ws[0].fn {
			return slot.Key{}, false
		}
		fn, ok := x.info.Defs[w.fn.Name].(*types.Func)
		if !ok {
			return slot.Key{}, false
		}
		k := x.key(w.rhs, x.paramEnv(fn), depth+1)
		k = k.Substitute(func(h slot.Hole) (slot.Key, bool) {
			id, ok := idOf(h)
			if !ok || id.isReceiver() || id.isGlobal() {
				return slot.Key{}, false
			}
			return slot.HoleKey(id.storedBy(fn), h.Label), true
		})
		if i > 0 && !k.Equal(key) {
			return slot.Key{}, false
		}
		key = k
	}
	s.key, s.ok = key, true
	return key, true
}

// paramEnv binds fn's parameters and receiver to their summary holes.
func (x *Extractor) paramEnv(fn *types.Func) *env {
	sig, _ := fn.Type().(*types.Signature)
	ev := &env{params: map[*types.Var]slot.Key{}}
	if sig == nil {
		return ev
	}
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		ev.params[p] = slot.HoleKey(paramID(i), p.Name())
	}
	if r := sig.Recv(); r != nil && r.Name() != "" && r.Name() != "_" {
		ev.params[r] = slot.HoleKey(recvID, r.Name())
	}
	return ev
}

// structSummary is, per field, the key a function's struct result holds
// when every return is a composite literal; fields left out are "".
func (x *Extractor) structSummary(fn *types.Func, depth int) (map[string]slot.Key, bool) {
	if s, ok := x.structSums[fn]; ok {
		return s.fields, s.ok && !s.pending
	}
	decls, _ := x.FuncDecls()
	fd := decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if fd == nil || sig == nil || sig.Results().Len() != 1 || depth > maxDepth {
		return nil, false
	}
	st, ok := structOf(sig.Results().At(0).Type())
	if !ok {
		return nil, false
	}
	s := &structSum{pending: true}
	x.structSums[fn] = s
	defer func() { s.pending = false }()
	ev := x.paramEnv(fn)
	var fields map[string]slot.Key
	failed := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if failed {
				return false
			}
			lit, ok := x.composite(n.Results, 1)
			if !ok {
				failed = true
				return false
			}
			got := x.literalFields(lit, st, ev, depth+1)
			if fields == nil {
				fields = got
				return false
			}
			for name, k := range fields {
				if g, ok := got[name]; !ok || !g.Equal(k) {
					delete(fields, name)
				}
			}
		}
		return true
	})
	if failed || len(fields) == 0 {
		return nil, false
	}
	s.fields, s.ok = fields, true
	return fields, true
}

type structSum struct {
	fields  map[string]slot.Key
	ok      bool
	pending bool
}

// composite finds the composite literal of a single returned value.
func (x *Extractor) composite(results []ast.Expr, n int) (*ast.CompositeLit, bool) {
	if len(results) != n {
		return nil, false
	}
	return x.Composite(results[0])
}

// literalFields keys the string fields of a struct literal.
func (x *Extractor) literalFields(lit *ast.CompositeLit, st *types.Struct, ev *env, depth int) map[string]slot.Key {
	out := map[string]slot.Key{}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !astutil.IsString(f.Type()) {
			continue
		}
		if v, ok := literalField(lit, st, f.Name()); ok {
			out[f.Name()] = x.key(v, ev, depth)
		} else {
			out[f.Name()] = slot.Literal("")
		}
	}
	return out
}

// literalField returns a field's value in a keyed or positional literal.
func literalField(lit *ast.CompositeLit, st *types.Struct, name string) (ast.Expr, bool) {
	if len(lit.Elts) > 0 {
		if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); !keyed {
			for i := 0; i < st.NumFields() && i < len(lit.Elts); i++ {
				if st.Field(i).Name() == name {
					return lit.Elts[i], true
				}
			}
			return nil, false
		}
	}
	return Field(lit, name)
}

// fieldValue resolves a field read x.f: from the struct value's origin in
// sight, else from the field's summary (this package's, or the fact of the
// package declaring it) named after the value x.
func (x *Extractor) fieldValue(e *ast.SelectorExpr, f *types.Var, ev *env, depth int) (slot.Key, bool) {
	if !astutil.IsString(f.Type()) {
		return slot.Key{}, false
	}
	if k, ok := x.originField(e.X, f, ev, depth); ok {
		return k, true
	}
	var sum slot.Key
	ok := false
	if f.Pkg() == x.pkg {
		sum, ok = x.fieldSummary(f, depth)
	} else if x.importFact != nil {
		var fact FieldKey
		if x.importFact(f, &fact) {
			sum, ok = (&KeyFunc{Parts: fact.Parts}).key(nil), true
		}
	}
	if !ok {
		return slot.Key{}, false
	}
	var baseID HoleID
	var baseLabel string
	var pos token.Pos
	if base, ok := x.key(e.X, ev, depth).SoleHole(); ok && isOwn(base) {
		baseID, _ = idOf(base)
		baseLabel, pos = base.Label, x.holePos[baseID]
	} else {
		baseID, baseLabel, pos = uniqueID(e.X.Pos()), label(e.X), e.X.Pos()
		x.holePos[baseID] = pos
	}
	// A field that holds one value as a whole (set from a constructor's
	// parameter) prints as the field read here: c.prefix, not the
	// constructor's cfg.Prefix behind the receiver.
	_, whole := sum.SoleHole()
	return sum.Substitute(func(h slot.Hole) (slot.Key, bool) {
		hid, ok := idOf(h)
		if !ok {
			return slot.Key{}, false
		}
		id, ok := hid.onReceiver(baseID)
		if !ok {
			return slot.Key{}, false
		}
		x.holeObj[id] = f
		lbl := baseLabel + "." + h.Label
		if whole {
			lbl = baseLabel + "." + e.Sel.Name
		}
		return x.hole(id, lbl, pos), true
	}), true
}

// originField is field f of the struct value e when e is, or is a local
// assigned once from, a composite literal or a call of a function whose
// returns are composite literals.
func (x *Extractor) originField(e ast.Expr, f *types.Var, ev *env, depth int) (slot.Key, bool) {
	st, ok := structOf(x.info.TypeOf(e))
	if !ok {
		return slot.Key{}, false
	}
	for range 4 {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
			continue
		}
		switch v := e.(type) {
		case *ast.CompositeLit:
			if val, ok := literalField(v, st, f.Name()); ok {
				return x.key(val, ev, depth), true
			}
			return slot.Literal(""), true
		case *ast.CallExpr:
			return x.resultField(v, f.Name(), ev, depth)
		case *ast.Ident:
			lv, ok := objVar(x.info, v)
			if !ok || x.flowFacts().escapes[lv] || x.fields().mutated[lv] || (lv.Pkg() != nil && lv.Parent() == lv.Pkg().Scope()) {
				return slot.Key{}, false
			}
			ws := x.flowFacts().writes[lv]
			if len(ws) != 1 || ws[0].rhs == nil || ws[0].add || ws[0].isAppend || ws[0].index {
				return slot.Key{}, false
			}
			e = ws[0].rhs
		default:
			return slot.Key{}, false
		}
	}
	return slot.Key{}, false
}

// resultField is field name of the struct a call returns.
func (x *Extractor) resultField(call *ast.CallExpr, name string, ev *env, depth int) (slot.Key, bool) {
	fn, ok := calleeFunc(x.info, call)
	if !ok {
		return slot.Key{}, false
	}
	var fields map[string]slot.Key
	if fn.Pkg() == x.pkg {
		fields, ok = x.structSummary(fn, depth)
	} else if x.importFact != nil {
		var fact KeyFields
		if ok = x.importFact(fn, &fact); ok {
			fields = fact.keys()
		}
	}
	if !ok {
		return slot.Key{}, false
	}
	k, ok := fields[name]
	if !ok {
		return slot.Key{}, false
	}
	return x.bind(k, fn, call, ev, depth)
}

// FieldValue reports whether e selects a struct field and, when this
// package gives that field exactly one value (an assignment or a struct
// literal) and never writes it otherwise or takes its address, returns
// that value: a script created in a constructor and held in a field is
// that script at every use.
func (x *Extractor) FieldValue(e ast.Expr) (value ast.Expr, isField bool) {
	f, ok := fieldOf(x.info, e)
	if !ok {
		return nil, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	scan := x.fields()
	if ws := scan.writes[f]; len(ws) == 1 && !scan.unknown[f] {
		return ws[0].rhs, true
	}
	return nil, true
}

// fields scans the package's field writes on first need.
func (x *Extractor) fields() *fieldScan {
	if x.scan == nil {
		x.scan = scanFields(x.info, x.files)
	}
	return x.scan
}

// exportFieldFacts records the keys held in this package's fields and
// returned in its structs, for importing packages.
func (x *Extractor) exportFieldFacts(pass *analysis.Pass) {
	x.mu.Lock()
	defer x.mu.Unlock()
	scan := x.fields()
	var fs []*types.Var
	for f := range scan.writes {
		if f.Pkg() == x.pkg && !f.Exported() && astutil.IsString(f.Type()) {
			fs = append(fs, f)
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Pos() < fs[j].Pos() })
	for _, f := range fs {
		if k, ok := x.fieldSummary(f, 0); ok {
			if fact, ok := factOf(k); ok {
				pass.ExportObjectFact(f, &FieldKey{Parts: fact.Parts})
			}
		}
	}
	_, order := x.FuncDecls()
	for _, fn := range order {
		fields, ok := x.structSummary(fn, 0)
		if !ok {
			continue
		}
		var kf KeyFields
		names := make([]string, 0, len(fields))
		for n := range fields {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if fact, ok := factOf(fields[n]); ok {
				kf.Fields = append(kf.Fields, NamedKey{Name: n, Parts: fact.Parts})
			}
		}
		if len(kf.Fields) > 0 {
			pass.ExportObjectFact(fn, &kf)
		}
	}
}
