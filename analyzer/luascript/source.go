package luascript

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/luacheck"
)

// maxDepth bounds how many constants and variables are followed to find
// one script's text, and maxNodes how many expressions are visited.
const (
	maxDepth = 32
	maxNodes = 1 << 14
)

// piece is one part of a script's text as written in Go: a string literal,
// or a constant from elsewhere (lit nil, placed at the expression using it).
type piece struct {
	text  string
	start int // offset of text in the script
	lit   *ast.BasicLit
	at    ast.Node
}

// script is one Lua script or Functions library whose text the package
// holds, with where each part of it is written.
type script struct {
	src      []byte
	pieces   []piece
	embedded string   // the .lua file's path as the directive names it, for embedded scripts
	anchor   ast.Node // where findings of an embedded script are reported: its //go:embed directive
	library  bool     // loaded with FUNCTION LOAD
	err      string   // why the text could not be read (embedded files)
	id       string   // identity: the place the text is written
	result   *luacheck.Result
	calls    int
	// imported: the script of another package's variable, named origin
	// (pkg.Var), known from its fact; its own findings are reported there.
	imported bool
	origin   string
	// calledFns are the library's functions some FCALL of the package names.
	calledFns map[string]bool
}

// embedDecl is a package-level variable initialised by //go:embed.
type embedDecl struct {
	dir      string // the directory of the Go file
	patterns []string
	comment  *ast.Comment
}

// resolver finds the text behind script expressions.
type resolver struct {
	pass *analysis.Pass
	// value is the one expression a constant or variable is ever given;
	// index is its place among a call's results when the value is a call
	// with several.
	value map[types.Object]ast.Expr
	index map[types.Object]int
	multi map[types.Object]bool
	// all is every value a constant, variable or field is given, nil for
	// one that is not followed.
	all    map[types.Object][]ast.Expr
	embeds map[*types.Var]*embedDecl
	// scripts by identity, so a constant used by several calls is one script.
	scripts map[string]*script
	order   []*script
	// budget is what is left of maxNodes for the text being resolved, size
	// the bytes gathered so far.
	budget, size int
	// byExpr remembers each expression's script.
	byExpr map[ast.Expr]*script
	// imported looks up the scripts other packages' variables hold.
	imported *importedScripts
	// funcs are the package's function declarations, for loaders
	// (inline); bound holds the arguments of the loader calls being
	// followed, each with the bindings its own expression is read under.
	funcs   map[*types.Func]*ast.FuncDecl
	bound   map[*types.Var]boundArg
	inlines int
}

// boundArg is the argument a loader call gives one parameter, with the
// bindings of the code that made the call.
type boundArg struct {
	expr  ast.Expr
	outer map[*types.Var]boundArg
}

func newResolver(pass *analysis.Pass) *resolver {
	r := &resolver{pass: pass, value: map[types.Object]ast.Expr{}, index: map[types.Object]int{},
		multi: map[types.Object]bool{}, all: map[types.Object][]ast.Expr{}, embeds: map[*types.Var]*embedDecl{}, scripts: map[string]*script{},
		byExpr: map[ast.Expr]*script{}, funcs: map[*types.Func]*ast.FuncDecl{}}
	info := pass.TypesInfo
	setObj := func(obj types.Object, e ast.Expr, i int) {
		if obj == nil {
			return
		}
		if i >= 0 {
			r.all[obj] = append(r.all[obj], nil)
		} else {
			r.all[obj] = append(r.all[obj], e)
		}
		if _, seen := r.value[obj]; seen || r.multi[obj] || e == nil {
			r.multi[obj] = true
			delete(r.value, obj)
			return
		}
		r.value[obj], r.index[obj] = e, i
	}
	set := func(id *ast.Ident, e ast.Expr, i int) {
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		setObj(obj, e, i)
	}
	// A struct field is followed like a variable: a script created once in
	// a constructor (s.read = redis.NewScript(src), or &S{read: ...}) and
	// run as s.read.Run(...) is that script.
	field := func(e ast.Expr) types.Object {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
			return s.Obj()
		}
		return nil
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
					r.funcs[fn] = n
				}
			case *ast.GenDecl:
				if n.Tok == token.VAR {
					r.embedDirectives(n)
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					switch {
					case len(n.Values) == len(n.Names):
						set(name, n.Values[i], -1)
					case len(n.Values) == 1:
						set(name, n.Values[0], i)
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					var obj types.Object
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
						obj = info.Defs[id]
						if obj == nil {
							obj = info.Uses[id]
						}
					} else if obj = field(lhs); obj == nil {
						continue
					}
					switch {
					case n.Tok != token.DEFINE && n.Tok != token.ASSIGN:
						setObj(obj, nil, -1) // x += ...: never followed
					case len(n.Rhs) == len(n.Lhs):
						setObj(obj, n.Rhs[i], -1)
					case len(n.Rhs) == 1:
						setObj(obj, n.Rhs[0], i)
					}
				}
			case *ast.CompositeLit:
				r.fieldsOf(n, setObj)
			case *ast.UnaryExpr:
				// &x and &s.f let anything write them.
				if n.Op != token.AND {
					break
				}
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					set(id, nil, -1)
				} else if obj := field(n.X); obj != nil {
					setObj(obj, nil, -1)
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						set(id, nil, -1)
					}
				}
			}
			return true
		})
	}
	return r
}

// fieldsOf records the values a struct literal gives its fields, keyed or
// in order.
func (r *resolver) fieldsOf(lit *ast.CompositeLit, set func(types.Object, ast.Expr, int)) {
	tv, ok := r.pass.TypesInfo.Types[lit]
	if !ok || tv.Type == nil {
		return
	}
	st, ok := tv.Type.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				set(r.pass.TypesInfo.Uses[id], kv.Value, -1)
			}
			continue
		}
		if i < st.NumFields() {
			set(st.Field(i), el, -1)
		}
	}
}

// embedDirectives records the //go:embed variables of a var declaration.
func (r *resolver) embedDirectives(d *ast.GenDecl) {
	for _, s := range d.Specs {
		vs := s.(*ast.ValueSpec)
		doc := vs.Doc
		if doc == nil && len(d.Specs) == 1 {
			doc = d.Doc
		}
		if doc == nil || len(vs.Names) != 1 {
			continue
		}
		var e *embedDecl
		for _, c := range doc.List {
			rest, ok := strings.CutPrefix(c.Text, "//go:embed")
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			if e == nil {
				e = &embedDecl{dir: filepath.Dir(r.pass.Fset.File(c.Pos()).Name()), comment: c}
			}
			e.patterns = append(e.patterns, embedPatterns(rest)...)
		}
		if v, ok := r.pass.TypesInfo.Defs[vs.Names[0]].(*types.Var); ok && e != nil {
			r.embeds[v] = e
		}
	}
}

// embedPatterns splits a //go:embed line: space-separated patterns, each
// possibly a Go string literal.
func embedPatterns(s string) []string {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		var p string
		if s[0] == '"' || s[0] == '`' {
			end := strings.IndexByte(s[1:], s[0])
			if end < 0 {
				return out
			}
			q := s[:end+2]
			u, err := strconv.Unquote(q)
			if err != nil {
				return out
			}
			p, s = u, s[end+2:]
		} else {
			i := strings.IndexAny(s, " \t")
			if i < 0 {
				i = len(s)
			}
			p, s = s[:i], s[i:]
		}
		out = append(out, strings.TrimPrefix(p, "all:"))
		s = strings.TrimSpace(s)
	}
	return out
}

// objectOf returns the constant or variable an identifier or a qualified
// identifier names.
func (r *resolver) objectOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return r.pass.TypesInfo.Uses[e]
	case *ast.SelectorExpr:
		return r.pass.TypesInfo.Uses[e.Sel]
	}
	return nil
}

// follow returns the expression a variable or constant named by e always
// holds, when it is given exactly one.
func (r *resolver) follow(e ast.Expr) (ast.Expr, bool) {
	obj := r.objectOf(e)
	if obj == nil || r.multi[obj] {
		return nil, false
	}
	v, ok := r.value[obj]
	return v, ok && v != nil && r.index[obj] < 0
}

// text resolves a string expression to the script text it always holds.
func (r *resolver) text(e ast.Expr) *script {
	if len(r.bound) > 0 {
		// A loader's body gives each call its own text.
		return r.resolveText(e)
	}
	if s, ok := r.byExpr[e]; ok {
		return s
	}
	s := r.resolveText(e)
	r.byExpr[e] = s
	return s
}

func (r *resolver) resolveText(e ast.Expr) *script {
	var pieces []piece
	var emb *script
	r.budget, r.size = maxNodes, 0
	ok := r.pieces(e, &pieces, &emb, 0)
	if r.size > luacheck.DefaultMaxBytes {
		// Never gather more text than the checker would read.
		return r.intern(&script{anchor: e, id: fmt.Sprintf("big:%d", e.Pos()),
			err: fmt.Sprintf("its text is over the size limit (%d bytes)", luacheck.DefaultMaxBytes)})
	}
	if emb != nil {
		if len(pieces) > 0 {
			return nil // embedded text concatenated with Go text: not mapped
		}
		return r.intern(emb)
	}
	if !ok || len(pieces) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for i := range pieces {
		pieces[i].start = buf.Len()
		buf.WriteString(pieces[i].text)
	}
	s := &script{src: buf.Bytes(), pieces: pieces}
	first := pieces[0].lit
	var at ast.Node = pieces[0].at
	if first != nil {
		at = first
	}
	s.id = fmt.Sprintf("go:%d:%d", at.Pos(), buf.Len())
	if len(r.bound) > 0 {
		// A loader's text differs by call from the same first piece.
		s.id += fmt.Sprintf(":%x", sha256.Sum256(buf.Bytes()))
	}
	return r.intern(s)
}

func (r *resolver) intern(s *script) *script {
	if old, ok := r.scripts[s.id]; ok {
		return old
	}
	r.scripts[s.id] = s
	r.order = append(r.order, s)
	return s
}

func (r *resolver) pieces(e ast.Expr, out *[]piece, emb **script, depth int) bool {
	r.budget--
	if depth > maxDepth || r.budget < 0 || r.size > luacheck.DefaultMaxBytes || *emb != nil {
		return false
	}
	info := r.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return false
		}
		s, err := strconv.Unquote(x.Value)
		if err != nil {
			return false
		}
		r.size += len(s)
		*out = append(*out, piece{text: s, lit: x, at: x})
		return r.size <= luacheck.DefaultMaxBytes
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return false
		}
		return r.pieces(x.X, out, emb, depth) && r.pieces(x.Y, out, emb, depth)
	case *ast.Ident, *ast.SelectorExpr:
		if v, ok := r.objectOf(x).(*types.Var); ok {
			if a, ok := r.bound[v]; ok {
				// A loader's parameter: the caller's argument, read with
				// the caller's own bindings.
				inner := r.bound
				r.bound = a.outer
				ok := r.pieces(a.expr, out, emb, depth+1)
				r.bound = inner
				return ok
			}
			if d := r.embeds[v]; d != nil && !isEmbedFS(v.Type()) {
				*emb = r.embedFile(d, "", x)
				return true
			}
		}
		if v, ok := r.follow(x); ok {
			return r.pieces(v, out, emb, depth+1)
		}
		if s := r.fromFact(x); s != nil {
			*emb = s
			return true
		}
		if obj := r.objectOf(x); obj != nil && r.value[obj] != nil && r.index[obj] == 0 {
			// data, err := fs.ReadFile("x.lua")
			if call, ok := ast.Unparen(r.value[obj]).(*ast.CallExpr); ok {
				if s := r.readFile(call); s != nil {
					*emb = s
					return true
				}
				// text, err := load("x"), a loader with an error result
				if result, restore, ok := r.inline(call, 0); ok {
					defer restore()
					return r.pieces(result, out, emb, depth+1)
				}
			}
		}
		// A constant of another package: its text, placed where it is used.
		if tv := info.Types[x]; tv.Value != nil && tv.Value.Kind() == constant.String {
			text := constant.StringVal(tv.Value)
			r.size += len(text)
			*out = append(*out, piece{text: text, at: x})
			return r.size <= luacheck.DefaultMaxBytes
		}
		return false
	case *ast.CallExpr:
		// string(b), []byte(s)
		if tv := info.Types[x.Fun]; tv.IsType() && len(x.Args) == 1 {
			return r.pieces(x.Args[0], out, emb, depth+1)
		}
		if text, ok := r.sprintf(x); ok {
			r.size += len(text)
			*out = append(*out, piece{text: text, at: x})
			return r.size <= luacheck.DefaultMaxBytes
		}
		// lua("admit.lua"), a loader that returns the text.
		if result, restore, ok := r.inline(x, 0); ok {
			defer restore()
			return r.pieces(result, out, emb, depth+1)
		}
		return false
	}
	return false
}

// readFile resolves a read of an embed.FS variable's file: the method
// (scripts.ReadFile(name)) or io/fs's function (fs.ReadFile(scripts,
// name)), with a name known when the package is analysed: a constant, or
// a sum of constants and a loader's parameters ("scripts/" + name).
func (r *resolver) readFile(call *ast.CallExpr) *script {
	fn, ok := typeutil.Callee(r.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Name() != "ReadFile" || fn.Pkg() == nil {
		return nil
	}
	var fsys, name ast.Expr
	switch {
	case fn.Pkg().Path() == "embed" && len(call.Args) == 1:
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		fsys, name = sel.X, call.Args[0]
	case fn.Pkg().Path() == "io/fs" && len(call.Args) == 2:
		fsys, name = call.Args[0], call.Args[1]
	default:
		return nil
	}
	v, ok := r.objectOf(fsys).(*types.Var)
	if !ok || r.embeds[v] == nil {
		return nil
	}
	file, ok := r.constText(name)
	if !ok {
		return nil
	}
	return r.embedFile(r.embeds[v], file, call)
}

// constText is the string an expression always holds, when only
// constants, sums of them and a loader's parameters make it.
func (r *resolver) constText(e ast.Expr) (string, bool) {
	var parts []piece
	var emb *script
	size := r.size
	ok := r.pieces(e, &parts, &emb, 0)
	r.size = size
	if !ok || emb != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.text)
	}
	return b.String(), true
}

// maxInlines bounds how many loader calls are followed inside each other.
const maxInlines = 4

// inline follows a call of a loader, a function of the package that
// returns one expression as its result number index (func script(name
// string) *redis.Script { src, err := lua.ReadFile("lua/" + name); ...;
// return redis.NewScript(string(src)) }, or func load(name string)
// (string, error) whose other returns give "" or nil with an error): it
// gives that expression with the call's arguments bound to the
// parameters, until restore. Loaders that return different values, take
// a variadic parameter or assign a parameter are not followed.
func (r *resolver) inline(call *ast.CallExpr, index int) (result ast.Expr, restore func(), ok bool) {
	if r.inlines >= maxInlines {
		return nil, nil, false
	}
	fn := typeutil.StaticCallee(r.pass.TypesInfo, call)
	if fn == nil {
		return nil, nil, false
	}
	fd := r.funcs[fn]
	sig, _ := fn.Type().(*types.Signature)
	if fd == nil || sig == nil || sig.Variadic() || sig.Recv() != nil || sig.Params().Len() != len(call.Args) ||
		index >= sig.Results().Len() {
		return nil, nil, false
	}
	ok = true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != sig.Results().Len() {
				ok = false // a bare return, or another call's results
				return false
			}
			e := n.Results[index]
			if isZeroLiteral(e) {
				return true
			}
			if result != nil && result != e {
				ok = false
				return false
			}
			result = e
		}
		return true
	})
	if !ok || result == nil {
		return nil, nil, false
	}
	bound := map[*types.Var]boundArg{}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		if len(r.all[p]) > 0 {
			return nil, nil, false
		}
		bound[p] = boundArg{expr: call.Args[i], outer: r.bound}
	}
	saved := r.bound
	r.bound = bound
	r.inlines++
	return result, func() { r.bound = saved; r.inlines-- }, true
}

// isZeroLiteral reports whether e is "" or nil: what a loader returns
// beside an error.
func isZeroLiteral(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return x.Kind == token.STRING && (x.Value == `""` || x.Value == "``")
	case *ast.Ident:
		return x.Name == "nil"
	}
	return false
}

// sprintf is the text of fmt.Sprintf with a constant format whose verbs
// are all %s, %v or %d, and arguments constText knows ("%s.lua", name).
func (r *resolver) sprintf(call *ast.CallExpr) (string, bool) {
	fn := typeutil.StaticCallee(r.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return "", false
	}
	tv := r.pass.TypesInfo.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	format, args := constant.StringVal(tv.Value), call.Args[1:]
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's', 'v', 'd':
			if len(args) == 0 {
				return "", false
			}
			t, ok := r.constText(args[0])
			if !ok {
				return "", false
			}
			b.WriteString(t)
			args = args[1:]
		default:
			return "", false
		}
	}
	return b.String(), len(args) == 0
}

// embedFile reads the file an embed variable holds: the one its patterns
// match for a string or []byte, or name for an embed.FS. The read is
// bounded: an oversized or unreadable file is a finding, not a crash.
func (r *resolver) embedFile(d *embedDecl, name string, at ast.Node) *script {
	s := &script{anchor: d.comment}
	if name == "" {
		var files []string
		for _, p := range d.patterns {
			m, err := filepath.Glob(filepath.Join(d.dir, filepath.FromSlash(p)))
			if err != nil {
				continue
			}
			files = append(files, m...)
		}
		if len(files) != 1 {
			s.err = fmt.Sprintf("//go:embed %s does not name exactly one file", strings.Join(d.patterns, " "))
			s.embedded = strings.Join(d.patterns, " ")
			s.id = "embed:" + s.embedded + ":" + strconv.Itoa(int(d.comment.Pos()))
			return s
		}
		rel, err := filepath.Rel(d.dir, files[0])
		if err != nil {
			rel = files[0]
		}
		name = filepath.ToSlash(rel)
	} else if !embedMatches(d.patterns, name) {
		return nil // not one of the variable's files: the program itself fails
	}
	s.embedded = name
	s.id = "embed:" + name + ":" + strconv.Itoa(int(d.comment.Pos()))
	if old, ok := r.scripts[s.id]; ok {
		return old
	}
	src, err := readBounded(filepath.Join(d.dir, filepath.FromSlash(name)), luacheck.DefaultMaxBytes)
	if err != nil {
		s.err = err.Error()
	}
	s.src = src
	return s
}

// embedMatches reports whether name is one of the files the patterns embed:
// a file a pattern matches, or one under a directory a pattern names.
func embedMatches(patterns []string, name string) bool {
	for _, p := range patterns {
		p = path.Clean(p)
		if ok, _ := path.Match(p, name); ok || strings.HasPrefix(name, p+"/") {
			return true
		}
		if dir := path.Dir(name); dir != "." {
			for ; dir != "."; dir = path.Dir(dir) {
				if ok, _ := path.Match(p, dir); ok {
					return true
				}
			}
		}
	}
	return false
}

var errTooLarge = errors.New("over the size limit")

// readBounded reads at most limit bytes of a file.
func readBounded(name string, limit int) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Base(name))
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, fmt.Errorf("%s is %w (%d bytes)", filepath.Base(name), errTooLarge, limit)
	}
	return b, nil
}

// scriptValue resolves a script value to the text it was created from, as
// the client's front end reads the call that made it. A string is the text
// itself: front ends that follow their script values to the text give
// that.
func (r *resolver) scriptValue(e ast.Expr) *script {
	if tv, ok := r.pass.TypesInfo.Types[e]; ok && tv.Type != nil && astutil.IsString(tv.Type) {
		return r.text(e)
	}
	for depth := 0; depth < maxDepth; depth++ {
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			if d, ok := redisapi.DefinedScript(r.pass.TypesInfo, call); ok && !d.Library {
				return r.text(d.Text)
			}
			// loadScript("hold.lua"), a loader that makes the script.
			result, restore, ok := r.inline(call, 0)
			if !ok {
				return nil
			}
			defer restore()
			e = result
			continue
		}
		v, ok := r.follow(e)
		if !ok {
			return r.fromFact(e)
		}
		e = v
	}
	return nil
}

// fromFact is the script another package's exported variable holds, as
// its fact records it.
func (r *resolver) fromFact(e ast.Expr) *script {
	v, ok := r.objectOf(e).(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg() == r.pass.Pkg || v.IsField() {
		return nil
	}
	f, ok := r.imported.lookup(v)
	if !ok {
		return nil
	}
	return r.intern(&script{src: []byte(f.Src), embedded: f.Embedded, library: f.Library, imported: true,
		origin: v.Pkg().Name() + "." + v.Name(), id: "fact:" + v.Pkg().Path() + "." + v.Name()})
}

// maxCandidates bounds how many scripts one variable may be given and
// still be followed.
const maxCandidates = 8

// scriptCandidates resolves a local variable given one of several scripts
// (if force { s = removeForce } else { s = remove }) to each of them; nil
// unless every value the variable is given is a known script.
func (r *resolver) scriptCandidates(e ast.Expr) []*script {
	obj, ok := r.objectOf(e).(*types.Var)
	if !ok || obj.IsField() || obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() {
		return nil
	}
	vals := r.all[obj]
	if len(vals) < 2 || len(vals) > maxCandidates {
		return nil
	}
	var out []*script
	seen := map[*script]bool{}
	for _, v := range vals {
		if v == nil {
			return nil
		}
		s := r.scriptValue(v)
		if s == nil {
			return nil
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// position maps a script position to the Go source: the literal and line
// the text is written at, or the //go:embed directive.
func (s *script) position(fset *token.FileSet, p luacheck.Position) (token.Pos, token.Pos) {
	if s.anchor != nil {
		return s.anchor.Pos(), s.anchor.End()
	}
	off := offsetOf(s.src, p.Line, p.Column)
	pc := s.pieces[0]
	for _, q := range s.pieces {
		if q.start <= off {
			pc = q
		}
	}
	if pc.lit == nil || pc.lit.Value[0] != '`' {
		return pc.at.Pos(), pc.at.End()
	}
	// A raw string: the script's text is the source text, except that
	// carriage returns are dropped, so count lines rather than bytes.
	rel := off - pc.start
	if rel > len(pc.text) {
		rel = len(pc.text)
	}
	lines := strings.Count(pc.text[:rel], "\n")
	file := fset.File(pc.lit.Pos())
	line := file.Line(pc.lit.Pos()) + lines
	if line > file.LineCount() {
		return pc.lit.Pos(), pc.lit.End()
	}
	start := file.LineStart(line)
	if lines == 0 {
		start = pc.lit.Pos() + 1
	}
	col := rel - (strings.LastIndexByte(pc.text[:rel], '\n') + 1)
	pos := start + token.Pos(col)
	if pos >= pc.lit.End() {
		pos = pc.lit.End() - 1
	}
	return pos, pos
}

// offsetOf is the byte offset of a 1-based line and column in src.
func offsetOf(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	if col > 1 {
		off += col - 1
	}
	if off > len(src) {
		off = len(src)
	}
	return off
}

func isEmbedFS(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS"
}
