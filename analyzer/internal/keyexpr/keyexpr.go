package keyexpr

import (
	_ "embed"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/internal/clientpaths"
	"github.com/slotlint/slotlint/slot"
)

// maxDepth bounds how deep expressions, variables and builders are
// followed; past it a value is unknown.
const maxDepth = 24

// Analyzer computes key-builder summaries, exports them as facts for
// importing packages, and hands rule analyzers an Extractor. It runs on
// every package, since builders may live where go-redis is not imported.
var Analyzer = &analysis.Analyzer{
	Name:       "slotlintkeys",
	Doc:        analyzerdoc.MustExtract(doc, "slotlintkeys"),
	Run:        run,
	FactTypes:  []analysis.Fact{new(KeyFunc), new(FieldKey), new(KeyFields)},
	ResultType: reflect.TypeOf((*Extractor)(nil)),
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

func run(pass *analysis.Pass) (any, error) {
	x := New(pass.Fset, pass.Pkg, pass.TypesInfo, pass.Files, pass.ImportObjectFact)
	// The standard library's string-returning functions format errors and
	// values, not Redis keys (the ones keys are built with, fmt, strconv
	// and strings, are modelled here directly), so they export no facts.
	// That keeps results the same whether or not a driver analyzes the
	// standard library: go vet -vettool asks for its facts, and slotlint
	// answers without type-checking it.
	if astutil.IsStandard(pass) || clientpaths.IsClientPackage(pass.Pkg.Path()) {
		return x, nil
	}
	_, order := x.FuncDecls()
	for _, fn := range order {
		k, ok := x.summary(fn)
		if !ok {
			continue
		}
		if f, ok := factOf(k); ok {
			pass.ExportObjectFact(fn, f)
		}
	}
	x.exportFieldFacts(pass)
	return x, nil
}

// Elem is one element of a key list, such as the keys slice of an EVAL or
// the variadic keys of MGET.
type Elem struct {
	Key  slot.Key
	Expr ast.Expr // the expression the key came from
	// Loop is set when the element is added once per iteration of this loop;
	// every iteration may give a different key.
	Loop ast.Node
}

// Extractor resolves expressions of one package. It is the Result shared
// by several analyzers that run in parallel: the exported methods are safe
// for concurrent use.
type Extractor struct {
	// mu guards the memo tables (sums, holePos); the flow facts are
	// computed once, on first use, and only read afterwards.
	mu sync.Mutex

	fset       *token.FileSet
	pkg        *types.Package
	info       *types.Info
	importFact func(types.Object, analysis.Fact) bool

	// flow is built by flowFacts, the first time a key follows a local
	// variable: most packages a program depends on (the standard library,
	// packages without string-returning functions) never need it.
	flowOnce sync.Once
	flow     *flow
	// decls and declOrder index the package's function declarations, on
	// first use (funcDecls), for the same reason.
	declsOnce sync.Once
	decls     map[*types.Func]*ast.FuncDecl
	declOrder []*types.Func
	sums      map[*types.Func]*sum
	// fields, fieldSums and structSums follow keys held in struct fields.
	scan       *fieldScan
	fieldSums  map[*types.Var]*sum
	structSums map[*types.Func]*structSum
	files      []*ast.File
	globals    map[*types.Var]ast.Expr
	// holePos records where the value behind a hole is declared, so a key
	// built in a loop can tell which holes change per iteration.
	holePos map[HoleID]token.Pos
	// holeObj records the variable or field a hole reads, and braced the
	// ones a value with a brace visibly reaches (braces.go).
	holeObj map[HoleID]types.Object
	braced  map[types.Object]BraceSource
}

// flowFacts returns the package's flow facts, built on first use.
func (x *Extractor) flowFacts() *flow {
	x.flowOnce.Do(func() { x.flow = buildFlow(x.info, x.files) })
	return x.flow
}

// FuncDecls returns the declarations of the package's functions with a
// body, by function and in source order, indexed on first use and shared:
// callers only read them.
func (x *Extractor) FuncDecls() (map[*types.Func]*ast.FuncDecl, []*types.Func) {
	x.declsOnce.Do(func() {
		x.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range x.files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if fn, ok := x.info.Defs[fd.Name].(*types.Func); ok {
					x.decls[fn] = fd
					x.declOrder = append(x.declOrder, fn)
				}
			}
		}
	})
	return x.decls, x.declOrder
}

type sum struct {
	key     slot.Key
	ok      bool
	pending bool
}

// New prepares an extractor; importFact may be nil.
func New(fset *token.FileSet, pkg *types.Package, info *types.Info, files []*ast.File, importFact func(types.Object, analysis.Fact) bool) *Extractor {
	x := &Extractor{fset: fset, pkg: pkg, info: info, importFact: importFact,
		sums: map[*types.Func]*sum{}, holePos: map[HoleID]token.Pos{}, holeObj: map[HoleID]types.Object{},
		fieldSums: map[*types.Var]*sum{}, structSums: map[*types.Func]*structSum{}, files: files}
	return x
}

// env binds a builder's parameters while its summary is computed.
type env struct {
	params map[*types.Var]slot.Key
}

// Key returns the symbolic key of a string expression.
func (x *Extractor) Key(e ast.Expr) slot.Key {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.key(e, nil, 0)
}

func (x *Extractor) hole(id HoleID, label string, decl token.Pos) slot.Key {
	if decl.IsValid() {
		x.holePos[id] = decl
	}
	return slot.HoleKey(id, label)
}

// unique is a value known only at this place.
func (x *Extractor) unique(e ast.Expr) slot.Key {
	return x.hole(uniqueID(e.Pos()), label(e), e.Pos())
}

// varHole is the hole of variable v's value as a whole.
func (x *Extractor) varHole(v *types.Var, decl token.Pos) slot.Key {
	id := varID(v)
	x.holeObj[id] = v
	return x.hole(id, v.Name(), decl)
}

func (x *Extractor) key(e ast.Expr, ev *env, depth int) slot.Key {
	if depth > maxDepth || e == nil {
		return x.unique(e)
	}
	depth++
	if tv, ok := x.info.Types[e]; ok && tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.String:
			return slot.Literal(constant.StringVal(tv.Value))
		case constant.Int:
			return slot.Literal(tv.Value.ExactString())
		}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return x.key(e.X, ev, depth)
	case *ast.BinaryExpr:
		if e.Op == token.ADD && astutil.IsString(x.info.TypeOf(e)) {
			return slot.Concat(x.key(e.X, ev, depth), x.key(e.Y, ev, depth))
		}
	case *ast.Ident:
		return x.ident(e, ev, depth)
	case *ast.SelectorExpr:
		if sel, ok := x.info.Selections[e]; ok {
			if sel.Kind() == types.FieldVal {
				if f, ok := sel.Obj().(*types.Var); ok {
					if k, ok := x.fieldValue(e, f, ev, depth); ok {
						return k
					}
				}
				if h, ok := x.key(e.X, ev, depth).SoleHole(); ok {
					if baseID, ok := idOf(h); ok {
						id := fieldID(baseID, e.Sel.Name)
						x.holeObj[id] = sel.Obj()
						return x.hole(id, h.Label+"."+e.Sel.Name, x.holePos[baseID])
					}
				}
			}
			return x.unique(e)
		}
		return x.ident(e.Sel, ev, depth) // qualified identifier
	case *ast.CallExpr:
		return x.call(e, ev, depth)
	}
	return x.unique(e)
}

func isInteger(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func (x *Extractor) ident(id *ast.Ident, ev *env, depth int) slot.Key {
	obj := x.info.Uses[id]
	if obj == nil {
		obj = x.info.Defs[id]
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() {
		return x.unique(id)
	}
	if ev != nil {
		if k, ok := ev.params[v]; ok {
			return k
		}
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return x.varHole(v, token.NoPos)
	}
	if x.flowFacts().escapes[v] {
		return x.hole(varReadID(v, id.Pos()), v.Name(), id.Pos())
	}
	ws := x.flowFacts().writes[v]
	if x.flowFacts().fixed[v] && len(ws) == 0 {
		return x.varHole(v, v.Pos())
	}
	w := x.flowFacts().governing(v, id.Pos())
	if w == nil {
		return x.hole(varReadID(v, id.Pos()), v.Name(), id.Pos())
	}
	return x.write(v, w, ev, depth)
}

// write is the value v holds after write w.
func (x *Extractor) write(v *types.Var, w *assign, ev *env, depth int) slot.Key {
	switch {
	case w.zero:
		if astutil.IsString(v.Type()) {
			return slot.Literal("")
		}
		return x.varHole(v, v.Pos())
	case w.rhs == nil || w.isAppend:
		if len(x.flowFacts().writes[v]) == 1 {
			return x.varHole(v, v.Pos())
		}
		return x.hole(varWriteID(v, w.pos), v.Name(), w.pos)
	case w.add:
		prev := x.flowFacts().governing(v, w.pos)
		if prev == nil {
			return slot.Concat(x.hole(varReadID(v, w.pos), v.Name(), w.pos), x.key(w.rhs, ev, depth))
		}
		return slot.Concat(x.write(v, prev, ev, depth+1), x.key(w.rhs, ev, depth))
	}
	if depth > maxDepth {
		return x.varHole(v, v.Pos())
	}
	k := x.key(w.rhs, ev, depth)
	// A key that is just an unknown value still names this variable: two
	// reads of a variable assigned once are the same value.
	if h, ok := k.SoleHole(); ok && isUniqueHole(h) {
		if len(x.flowFacts().writes[v]) == 1 {
			return x.varHole(v, v.Pos())
		}
	}
	return k
}

// valueID names a non-string value (an int id) for the holes of its
// formatted text; false when the value is not one stable thing.
func (x *Extractor) valueID(e ast.Expr, ev *env, depth int) (HoleID, string, token.Pos, bool) {
	if h, ok := x.key(e, ev, depth).SoleHole(); ok {
		if id, ok := idOf(h); ok {
			return id, h.Label, x.holePos[id], true
		}
	}
	return HoleID{}, "", token.NoPos, false
}

// formatted is the text of value e printed by verb: a string printed with
// %s or %v is itself; a number printed in decimal is one hole whatever the
// function that printed it (%d, %v, strconv.Itoa).
func (x *Extractor) formatted(e ast.Expr, verb byte, ev *env, depth int, lbl string) slot.Key {
	if printedByMethod(x.info.TypeOf(e), verb) {
		// fmt prints what the type's own method returns: neither the
		// operand's text nor a number.
		return x.printedValue(e, methodClass, ev, depth, lbl)
	}
	if tv, ok := x.info.Types[e]; ok && tv.Value != nil {
		switch {
		case tv.Value.Kind() == constant.String && (verb == 's' || verb == 'v'):
			return slot.Literal(constant.StringVal(tv.Value))
		case tv.Value.Kind() == constant.Int && (verb == 'd' || verb == 'v'):
			return slot.Literal(tv.Value.ExactString())
		}
	}
	t := x.info.TypeOf(e)
	if t != nil && astutil.IsString(t) && (verb == 's' || verb == 'v') {
		return x.key(e, ev, depth)
	}
	class := string(verb)
	if t != nil && isInteger(t) && (verb == 'd' || verb == 'v') {
		class = "dec"
	}
	return x.printedValue(e, class, ev, depth, lbl)
}

// printedValue is the hole of value e printed by class: one hole for one
// value, a new one for a value that is not one stable thing.
func (x *Extractor) printedValue(e ast.Expr, class string, ev *env, depth int, lbl string) slot.Key {
	id, l, pos, ok := x.valueID(e, ev, depth)
	if !ok {
		if braceFreeClass[class] {
			return x.hole(safeUniqueID(e.Pos()), label(e), e.Pos())
		}
		return x.unique(e)
	}
	if lbl == "" {
		lbl = l
	}
	return x.hole(printedID(class, id), lbl, pos)
}

// methodClass is the printing class of a value fmt prints through its
// own Format, Error or String method: text of any shape.
const methodClass = "method"

// printedByMethod reports whether fmt prints a value of static type t with
// verb through the type's own method: Format for every verb, Error or
// String (an error first) for %v, %s and %q. Hex of the method's text
// (%x) still holds no brace and stays its class.
func printedByMethod(t types.Type, verb byte) bool {
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Interface); ok {
		// The dynamic value decides: the operand is a hole already.
		return false
	}
	ms := types.NewMethodSet(t)
	if sel := ms.Lookup(nil, "Format"); sel != nil {
		if sig, ok := sel.Type().(*types.Signature); ok && sig.Params().Len() == 2 && sig.Results().Len() == 0 {
			return true
		}
	}
	if verb != 'v' && verb != 's' && verb != 'q' {
		return false
	}
	for _, name := range []string{"Error", "String"} {
		if sel := ms.Lookup(nil, name); sel != nil {
			if sig, ok := sel.Type().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && astutil.IsString(sig.Results().At(0).Type()) {
				return true
			}
		}
	}
	return false
}

func (x *Extractor) call(call *ast.CallExpr, ev *env, depth int) slot.Key {
	if tv, ok := x.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		arg := call.Args[0]
		if at := x.info.TypeOf(arg); at != nil && (astutil.IsString(at) || isBytes(at)) {
			return x.key(arg, ev, depth)
		}
		return x.unique(call)
	}
	if c, ok := ast.Unparen(call.Fun).(*ast.CallExpr); ok && isBuiltin(x.info, c.Fun, "append") {
		return x.unique(call)
	}
	fn, ok := calleeFunc(x.info, call)
	if !ok {
		return x.unique(call)
	}
	if k, ok := x.replace(fn, call, ev, depth); ok {
		return k
	}
	if k, ok := x.runtimeKey(fn, call, ev, depth); ok {
		return k
	}
	if fn.Pkg() != nil {
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "fmt.Sprintf":
			if len(call.Args) > 0 && !call.Ellipsis.IsValid() {
				if tv := x.info.Types[call.Args[0]]; tv.Value != nil && tv.Value.Kind() == constant.String {
					if k, ok := x.sprintf(constant.StringVal(tv.Value), call.Args[1:], ev, depth); ok {
						return k
					}
				}
			}
			return x.unique(call)
		case "fmt.Sprint":
			if !call.Ellipsis.IsValid() {
				return x.sprint(call.Args, ev, depth)
			}
			return x.unique(call)
		case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint":
			if len(call.Args) == 1 || (len(call.Args) == 2 && isConst(x.info, call.Args[1], "10")) {
				return x.formatted(call.Args[0], 'd', ev, depth, label(call))
			}
			return x.safe(fn, call, ev, depth)
		case "strconv.FormatFloat", "strconv.FormatComplex",
			"encoding/hex.EncodeToString", "encoding/base64.EncodeToString", "encoding/base32.EncodeToString":
			return x.safe(fn, call, ev, depth)
		case "strconv.Quote":
			return x.formatted(call.Args[0], 'q', ev, depth, label(call))
		case "strconv.FormatBool":
			return x.formatted(call.Args[0], 't', ev, depth, label(call))
		case "strings.Join":
			if len(call.Args) == 2 {
				if tv := x.info.Types[call.Args[1]]; tv.Value != nil && tv.Value.Kind() == constant.String {
					elems, complete := x.list(call.Args[0], ev, depth)
					if complete && !anyLoop(elems) {
						sep := slot.Literal(constant.StringVal(tv.Value))
						var ks []slot.Key
						for i, el := range elems {
							if i > 0 {
								ks = append(ks, sep)
							}
							ks = append(ks, el.Key)
						}
						return slot.Concat(ks...)
					}
				}
			}
			return x.unique(call)
		}
	}
	return x.builder(fn, call, ev, depth)
}

func calleeFunc(info *types.Info, call *ast.CallExpr) (*types.Func, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return fn, ok && fn != nil
}

func isBytes(t types.Type) bool {
	s, ok := types.Unalias(t).Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Rune)
}

func isConst(info *types.Info, e ast.Expr, want string) bool {
	tv := info.Types[e]
	return tv.Value != nil && tv.Value.ExactString() == want
}

func anyLoop(elems []Elem) bool {
	for _, e := range elems {
		if e.Loop != nil {
			return true
		}
	}
	return false
}

// sprintf expands a constant format: verbs become their operands' keys.
func (x *Extractor) sprintf(format string, args []ast.Expr, ev *env, depth int) (slot.Key, bool) {
	var ks []slot.Key
	argi := 0
	lit := strings.Builder{}
	flush := func() {
		if lit.Len() > 0 {
			ks = append(ks, slot.Literal(lit.String()))
			lit.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			lit.WriteByte('%')
			i++
			continue
		}
		// Flags, width, precision or explicit indexes: not followed.
		j := i + 1
		if j >= len(format) {
			return slot.Key{}, false
		}
		verb := format[j]
		if !strings.ContainsRune("sdvxXqt", rune(verb)) || argi >= len(args) {
			return slot.Key{}, false
		}
		flush()
		ks = append(ks, x.formatted(args[argi], verb, ev, depth, ""))
		argi++
		i = j
	}
	if argi != len(args) {
		return slot.Key{}, false
	}
	flush()
	return slot.Concat(ks...), true
}

// sprint follows fmt.Sprint: operands printed with %v, a space between two
// operands when neither is a string.
func (x *Extractor) sprint(args []ast.Expr, ev *env, depth int) slot.Key {
	var ks []slot.Key
	for i, a := range args {
		if i > 0 && !astutil.IsString(x.info.TypeOf(a)) && !astutil.IsString(x.info.TypeOf(args[i-1])) {
			ks = append(ks, slot.Literal(" "))
		}
		ks = append(ks, x.formatted(a, 'v', ev, depth, ""))
	}
	return slot.Concat(ks...)
}

// builder inlines a key-builder function: its summary with the parameters
// bound to the call's arguments.
func (x *Extractor) builder(fn *types.Func, call *ast.CallExpr, ev *env, depth int) slot.Key {
	var k slot.Key
	ok := false
	if fn.Pkg() == x.pkg {
		k, ok = x.summaryDepth(fn, depth)
	} else if x.importFact != nil {
		var f KeyFunc
		if x.importFact(fn, &f) {
			k, ok = f.key(nil), true
		}
	}
	if ok {
		if k, ok = x.bind(k, fn, call, ev, depth); ok {
			return k
		}
	}
	return x.unique(call)
}

// bind gives a summary's parameters the call's arguments and its receiver
// the call's receiver value. Holes of the callee's own locals are renamed
// per call site: two calls are two values.
func (x *Extractor) bind(k slot.Key, fn *types.Func, call *ast.CallExpr, ev *env, depth int) (slot.Key, bool) {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Variadic() || len(call.Args) != sig.Params().Len() || call.Ellipsis.IsValid() {
		return slot.Key{}, false
	}
	args := make([]slot.Key, len(call.Args))
	for i, a := range call.Args {
		if t := x.info.TypeOf(a); t != nil && astutil.IsString(t) {
			args[i] = x.key(a, ev, depth)
		} else {
			args[i] = x.formatted(a, 'v', ev, depth, "")
		}
	}
	return k.Substitute(func(h slot.Hole) (slot.Key, bool) {
		hid, ok := idOf(h)
		if !ok {
			return slot.Key{}, false
		}
		if cls, n, ok := hid.printedParam(); ok && n < len(call.Args) {
			if safeClass(cls) {
				if id, _, pos, ok := x.valueID(call.Args[n], ev, depth); ok {
					return x.hole(printedID(cls, id), callLabel(h.Label, sig, call), pos), true
				}
				return x.hole(safeUniqueID(call.Args[n].Pos()), callLabel(h.Label, sig, call), call.Args[n].Pos()), true
			}
			verb := byte('v')
			if cls == "dec" {
				verb = 'd'
			} else if len(cls) == 1 {
				verb = cls[0]
			}
			return x.formatted(call.Args[n], verb, ev, depth, ""), true
		}
		if n, ok := hid.param(); ok && n < len(args) {
			return args[n], true
		}
		if hid.isGlobal() {
			return slot.Key{}, false
		}
		if k, ok := x.bindReceiver(hid, h.Label, fn, call, ev, depth); ok {
			return k, true
		}
		return x.hole(atCall(hid, call.Pos()), callLabel(h.Label, sig, call), call.Pos()), true
	}), true
}

// bindReceiver gives a summary's receiver hole (or a field of it, printed
// or not) the value of the receiver at this call, so two methods of one
// value (q.pending(), q.running()) build keys from the same q.name. Only a
// receiver that is one named value binds; otherwise each call has its own.
func (x *Extractor) bindReceiver(h HoleID, lbl string, fn *types.Func, call *ast.CallExpr, ev *env, depth int) (slot.Key, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return slot.Key{}, false
	}
	if s, ok := x.info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
		return slot.Key{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return slot.Key{}, false
	}
	base, ok := x.key(sel.X, ev, depth).SoleHole()
	if !ok {
		return slot.Key{}, false
	}
	baseID, ok := idOf(base)
	if !ok || baseID.isUnique() {
		return slot.Key{}, false
	}
	id, ok := h.onReceiver(baseID)
	if !ok {
		return slot.Key{}, false
	}
	if rest, ok := strings.CutPrefix(lbl, sig.Recv().Name()); ok {
		lbl = base.Label + rest
	}
	return x.hole(id, lbl, x.holePos[baseID]), true
}

func (x *Extractor) summary(fn *types.Func) (slot.Key, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.summaryDepth(fn, 0)
}

// summaryDepth computes the key fn returns in terms of its parameters: the
// same key from every return statement, or nothing.
func (x *Extractor) summaryDepth(fn *types.Func, depth int) (slot.Key, bool) {
	if s, ok := x.sums[fn]; ok {
		return s.key, s.ok && !s.pending
	}
	decls, _ := x.FuncDecls()
	fd := decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if fd == nil || sig == nil || sig.Results().Len() != 1 || !astutil.IsString(sig.Results().At(0).Type()) || depth > maxDepth {
		return slot.Key{}, false
	}
	s := &sum{pending: true}
	x.sums[fn] = s
	ev := x.paramEnv(fn)
	var keys []slot.Key
	failed := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				failed = true
				return false
			}
			keys = append(keys, x.key(n.Results[0], ev, depth+1))
		}
		return true
	})
	s.pending = false
	if failed || len(keys) == 0 {
		return slot.Key{}, false
	}
	for _, k := range keys[1:] {
		if !k.Equal(keys[0]) {
			return slot.Key{}, false
		}
	}
	// A builder whose result is only an unknown value builds nothing; one
	// that joins unknown values (ns + key) builds a key of their parts.
	if _, sole := keys[0].SoleHole(); !hasLiteral(keys[0]) && (sole || !keys[0].OnlyHoles()) {
		return slot.Key{}, false
	}
	s.key, s.ok = keys[0], true
	return s.key, true
}

func hasLiteral(k slot.Key) bool {
	for _, p := range k.Parts() {
		if p.Hole == nil {
			return true
		}
	}
	return false
}

// List resolves a []string expression (a keys slice) into its elements.
// complete is false when some elements cannot be known.
func (x *Extractor) List(e ast.Expr) ([]Elem, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.list(e, nil, 0)
}

func (x *Extractor) list(e ast.Expr, ev *env, depth int) ([]Elem, bool) {
	if depth > maxDepth {
		return nil, false
	}
	depth++
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.CompositeLit:
		var out []Elem
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			out = append(out, Elem{Key: x.key(el, ev, depth), Expr: el})
		}
		return out, true
	case *ast.Ident:
		if e.Name == "nil" {
			if _, ok := x.info.Uses[e].(*types.Nil); ok {
				return nil, true
			}
		}
		v, ok := objVar(x.info, e)
		if !ok || x.flowFacts().escapes[v] || x.flowFacts().fixed[v] || (v.Pkg() != nil && v.Parent() == v.Pkg().Scope()) {
			return nil, false
		}
		return x.sliceVar(v, e.Pos(), ev, depth)
	case *ast.CallExpr:
		if isBuiltin(x.info, e.Fun, "append") && len(e.Args) > 0 {
			out, complete := x.list(e.Args[0], ev, depth)
			if e.Ellipsis.IsValid() {
				if len(e.Args) != 2 {
					return out, false
				}
				more, c := x.list(e.Args[1], ev, depth)
				return append(out, more...), complete && c
			}
			for _, a := range e.Args[1:] {
				out = append(out, Elem{Key: x.key(a, ev, depth), Expr: a})
			}
			return out, complete
		}
		if tv, ok := x.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return x.list(e.Args[0], ev, depth) // []string(x)
		}
	}
	return nil, false
}

// sliceVar collects a local slice's elements before use: its initial value,
// then every append or index write in order; writes inside a loop that does
// not hold the declaration happen once per iteration.
func (x *Extractor) sliceVar(v *types.Var, use token.Pos, ev *env, depth int) ([]Elem, bool) {
	ws := x.flowFacts().writes[v]
	var out []Elem
	complete := true
	var init *assign
	for _, w := range ws {
		if w.pos >= use {
			continue
		}
		if (w.isAppend || w.index) && x.flowFacts().returns[w.block] && !within(use, w.block) {
			continue // if … { keys = append(keys, k); return run(keys) }
		}
		switch {
		case w.isAppend:
			loop := x.loopAround(w.pos, ws[0].pos)
			if w.spread {
				if len(w.items) != 1 {
					complete = false
					continue
				}
				more, c := x.list(w.items[0], ev, depth)
				complete = complete && c
				for _, m := range more {
					if m.Loop == nil {
						m.Loop = loop
					}
					out = append(out, m)
				}
				continue
			}
			for _, it := range w.items {
				out = append(out, Elem{Key: x.key(it, ev, depth), Expr: it, Loop: loop})
			}
		case w.index:
			if w.rhs == nil {
				complete = false
				continue
			}
			out = append(out, Elem{Key: x.key(w.rhs, ev, depth), Expr: w.rhs, Loop: x.loopAround(w.pos, ws[0].pos)})
		default:
			if init != nil {
				return nil, false // reassigned: not followed
			}
			init = w
			switch {
			case w.zero:
			case w.rhs == nil:
				return nil, false
			default:
				if isMake(x.info, w.rhs) {
					continue
				}
				first, c := x.list(w.rhs, ev, depth)
				complete = complete && c
				out = append(first, out...)
			}
		}
	}
	if init == nil {
		return nil, false
	}
	return out, complete
}

func isMake(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !isBuiltin(info, call.Fun, "make") || len(call.Args) < 2 {
		return false
	}
	// make([]string, n) holds n empty keys until written: only a zero
	// length is followed.
	return isConst(info, call.Args[1], "0")
}

// loopAround returns the innermost loop holding p but not decl.
func (x *Extractor) loopAround(p, decl token.Pos) ast.Node {
	var best *[2]token.Pos
	for i, l := range x.flowFacts().loops {
		if within(p, l) && !within(decl, l) {
			if best == nil || l[0] > best[0] {
				best = &x.flowFacts().loops[i]
			}
		}
	}
	if best == nil {
		return nil
	}
	return loopNode{best[0], best[1]}
}

// loopNode is a loop's extent.
type loopNode struct{ pos, end token.Pos }

func (l loopNode) Pos() token.Pos { return l.pos }
func (l loopNode) End() token.Pos { return l.end }

// LoopOf returns the innermost loop around p inside the function body
// [from, to), or nil.
func (x *Extractor) LoopOf(p token.Pos, from, to token.Pos) ast.Node {
	var best *[2]token.Pos
	for i, l := range x.flowFacts().loops {
		if within(p, l) && from <= l[0] && l[1] <= to {
			if best == nil || l[0] > best[0] {
				best = &x.flowFacts().loops[i]
			}
		}
	}
	if best == nil {
		return nil
	}
	return loopNode{best[0], best[1]}
}

// Vary returns k as a later iteration of loop sees it: every hole whose
// value is declared inside the loop is renamed, the rest stay.
func (x *Extractor) Vary(k slot.Key, loop ast.Node) slot.Key {
	if loop == nil {
		return k
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return k.Substitute(func(h slot.Hole) (slot.Key, bool) {
		id, ok := idOf(h)
		if !ok {
			return slot.Key{}, false
		}
		p, ok := x.holePos[id]
		if !ok || p < loop.Pos() || p >= loop.End() {
			return slot.Key{}, false
		}
		return slot.HoleKey(primed(id), h.Label), true
	})
}

// MapKeys returns the keys of a map composite literal (MSet(map...)).
func (x *Extractor) MapKeys(e ast.Expr) ([]Elem, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []Elem
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		out = append(out, Elem{Key: x.key(kv.Key, nil, 0), Expr: kv.Key})
	}
	return out, true
}

// Composite finds the composite literal behind e: &T{...}, T{...}, or a
// local variable assigned one once.
func (x *Extractor) Composite(e ast.Expr) (*ast.CompositeLit, bool) {
	for range 4 {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
			continue
		}
		if lit, ok := e.(*ast.CompositeLit); ok {
			return lit, true
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return nil, false
		}
		v, ok := objVar(x.info, id)
		if !ok || x.flowFacts().escapes[v] {
			return nil, false
		}
		ws := x.flowFacts().writes[v]
		if len(ws) != 1 || ws[0].rhs == nil {
			return nil, false
		}
		e = ws[0].rhs
	}
	return nil, false
}

// Field returns the value of field name in a struct composite literal, and
// whether the field is set.
func Field(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
			return kv.Value, true
		}
	}
	return nil, false
}

// Info exposes the type information the extractor works on.
func (x *Extractor) Info() *types.Info { return x.info }

// Origin returns the expression a local variable was assigned exactly once,
// or e itself.
func (x *Extractor) Origin(e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return e
	}
	v, ok := objVar(x.info, id)
	if !ok || x.flowFacts().escapes[v] {
		return e
	}
	ws := x.flowFacts().writes[v]
	if len(ws) != 1 || ws[0].rhs == nil {
		return e
	}
	return ws[0].rhs
}

// Var returns the local variable e names, if any.
func (x *Extractor) Var(e ast.Expr) (*types.Var, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	return objVar(x.info, id)
}

// safe is the text of a function that prints digits, letters and a few
// signs, never a brace: named after its argument when that is one value.
func (x *Extractor) safe(fn *types.Func, call *ast.CallExpr, ev *env, depth int) slot.Key {
	if len(call.Args) > 0 {
		if id, _, pos, ok := x.valueID(call.Args[0], ev, depth); ok {
			return x.hole(safeCallID(fn.Name(), id), label(call), pos)
		}
	}
	return x.hole(safeUniqueID(call.Pos()), label(call), call.Pos())
}

// maxValues bounds how many assignments of one variable Values lists.
const maxValues = 8

// Values lists what a local variable e names is given, when every write of
// it assigns one whole value (key := a; if x { key = b }; switch …): the
// variable holds one of them at any use.
func (x *Extractor) Values(e ast.Expr) ([]ast.Expr, bool) {
	v, ok := x.Var(e)
	if !ok || x.flowFacts().escapes[v] || x.flowFacts().fixed[v] || v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return nil, false
	}
	ws := x.flowFacts().writes[v]
	if len(ws) < 2 || len(ws) > maxValues {
		return nil, false
	}
	var out []ast.Expr
	for _, w := range ws {
		switch {
		case w.zero && w == ws[0]:
			// var key string, then assigned in every branch: a path that
			// leaves it empty is taken not to reach the use (an empty key
			// is another bug than the slots of the values).
			continue
		case w.rhs == nil || w.add || w.zero || w.isAppend || w.index:
			return nil, false
		}
		out = append(out, w.rhs)
	}
	return out, len(out) > 0
}
