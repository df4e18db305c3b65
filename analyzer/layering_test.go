package analyzer_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/internal/pkgload"
)

// A layeringRule is a contract of the analyzer's layout that this test
// holds, rather than review: which package may know what. Each rule sees
// every non-test package under analyzer/ that applies accepts, parsed and
// type-checked, and returns one message per violation.
type layeringRule struct {
	name string
	// applies reports whether the rule checks the package with this import
	// path.
	applies func(path string) bool
	check   func(pkg *packages.Package) []violation
	// bad are function bodies, in a package that imports slot, keyexpr and
	// strings, that the rule must flag: the check is shown to catch what
	// it is there for.
	bad []string
}

type violation struct {
	at  ast.Node
	msg string
}

const (
	modulePath  = "github.com/slotlint/slotlint"
	keyexprPkg  = modulePath + "/analyzer/internal/keyexpr"
	redisapiPkg = modulePath + "/analyzer/internal/redisapi"
	slotPkg     = modulePath + "/slot"
)

var layeringRules = []layeringRule{
	{
		// Rules read the client-neutral records of internal/redisapi. They
		// never decide by the Go method a call was written with: the
		// records' Method field is for messages (a format argument, or
		// part of a string built for one), and no name is compared with a
		// client method's name. TestLayeringCatches shows what it flags.
		name:    "rules read records, not client method names",
		applies: isRulePackage,
		check: func(pkg *packages.Package) []violation {
			var out []violation
			for _, f := range pkg.Syntax {
				for _, u := range methodNameUses(f) {
					out = append(out, violation{posNode(u.at), u.what})
				}
			}
			return out
		},
	},
	{
		// What a Go type means for a command (a pipeline, a transaction
		// value of a WATCH block, a client of one server) is the front
		// ends' to say, in the records: a rule that hands redisapi a type
		// to ask about reads the client's API itself.
		name:    "rules ask redisapi nothing of a Go type",
		applies: isRulePackage,
		check:   typeQueries,
		bad:     []string{`var t types.Type; _ = redisapi.IsPipeline(t)`},
	},
	{
		// keyexpr owns the identity of a Go key's holes: it builds the IDs
		// and answers every question about them (IsGlobal, AtCall, Prints,
		// BraceFree, VarHole). Elsewhere an ID is only compared.
		name:    "hole IDs are keyexpr's",
		applies: func(path string) bool { return path != keyexprPkg },
		check:   holeIDsOpaque,
		bad: []string{
			`var h slot.Hole; _ = strings.HasPrefix(fmt.Sprint(h.ID), "g:")`,
			`var h slot.Hole; _, _ = h.ID.(fmt.Stringer)`,
			`var h slot.Hole; switch h.ID.(type) {}`,
			`var h slot.Hole; _ = slot.HoleKey(h.ID, "x")`,
			`_ = "v:x@12"`,
			`var v *types.Var; var x *keyexpr.Extractor; _ = fmt.Sprintf("%v@call%d", x.VarHole(v), 3)`,
		},
	},
	{
		// slot.Key answers what its parts make it (Literal, SoleHole,
		// OnlyHoles, HasHoles); elsewhere a key's parts are walked in
		// order, never counted or indexed to spell one of those answers
		// out again.
		name:    "keys' parts are walked, not counted",
		applies: func(string) bool { return true },
		check:   partsCounted,
		bad: []string{
			`var k slot.Key; _ = len(k.Parts()) == 1 && k.Parts()[0].Hole != nil`,
			`var k slot.Key; ps := k.Parts(); _ = ps`,
			`var k slot.Key; _ = make([]int, len(k.Parts())) == nil || len(k.Parts()) > 1`,
		},
	},
	{
		// keyexpr indexes the package's function declarations once, in
		// source order (Extractor.FuncDecls); redisapi's helper summaries,
		// lockcheck and luascript read that index rather than each walking
		// the files' declarations for their own.
		name:    "function declarations come from keyexpr's index",
		applies: func(path string) bool { return path != keyexprPkg },
		check:   declWalks,
		bad:     []string{`var f *ast.File; for _, d := range f.Decls { _, _ = d.(*ast.FuncDecl) }`},
	},
	{
		// What one package needs of another it imports; a package that
		// sets another's variables (a hook set in init) makes the second
		// depend on the first without importing it.
		name:    "no package sets another's variables",
		applies: func(string) bool { return true },
		check:   foreignWrites,
		bad:     []string{`types.Universe = nil`, `_, types.Unsafe = 1, nil`},
	},
}

// TestLayering checks every rule of layeringRules on the analyzer's
// packages, after checking that each flags its bad examples.
func TestLayering(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps}
	// The rules read the analyzer's own packages; the standard library's
	// declarations are all their types need (internal/pkgload).
	pkgs, err := pkgload.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading the analyzer's packages", n)
	}
	loaded := map[string]*types.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) { loaded[p.PkgPath] = p.Types })
	for _, r := range layeringRules {
		for _, body := range r.bad {
			if vs := r.check(badPackage(t, loaded, body)); len(vs) == 0 {
				t.Errorf("rule %q does not flag %s", r.name, body)
			}
		}
	}
	checked := map[string]bool{}
	for _, pkg := range pkgs {
		for _, r := range layeringRules {
			if !r.applies(pkg.PkgPath) {
				continue
			}
			checked[r.name] = true
			for _, v := range r.check(pkg) {
				t.Errorf("%s: %s (%s)", pkg.Fset.Position(v.at.Pos()), v.msg, r.name)
			}
		}
	}
	for _, r := range layeringRules {
		if !checked[r.name] {
			t.Errorf("rule %q checked no package", r.name)
		}
	}
}

// typeQueries reports calls of a redisapi function that takes a
// types.Type.
func typeQueries(pkg *packages.Package) []violation {
	var out []violation
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(pkg.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != redisapiPkg {
				return true
			}
			params := fn.Type().(*types.Signature).Params()
			for i := range params.Len() {
				if n, ok := types.Unalias(params.At(i).Type()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "go/types" && n.Obj().Name() == "Type" {
					out = append(out, violation{call, "asks redisapi." + fn.Name() + " about a Go type"})
					break
				}
			}
			return true
		})
	}
	return out
}

// partsCounted reports each call of slot.Key's Parts that is not the
// range expression of a for statement, nor the length of a slice made for
// the parts (make(T, 0, len(k.Parts()))).
func partsCounted(pkg *packages.Package) []violation {
	var out []violation
	for _, f := range pkg.Syntax {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			defer func() { stack = append(stack, n) }()
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(pkg.TypesInfo, call).(*types.Func)
			if !ok || fn.Name() != "Parts" || fn.Pkg() == nil || fn.Pkg().Path() != slotPkg {
				return true
			}
			if recv := fn.Type().(*types.Signature).Recv(); recv == nil || types.TypeString(recv.Type(), nil) != slotPkg+".Key" {
				return true
			}
			if walked(stack, call) {
				return true
			}
			out = append(out, violation{call, "reads " + types.ExprString(call) + " other than by walking it"})
			return true
		})
	}
	return out
}

// walked reports whether a Parts call, whose parents stack holds
// (innermost last), is a range expression or a capacity given to make.
func walked(stack []ast.Node, call ast.Expr) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.RangeStmt:
		return p.X == call
	case *ast.CallExpr:
		if !isIdent(p.Fun, "len") || len(stack) < 2 {
			return false
		}
		mk, ok := stack[len(stack)-2].(*ast.CallExpr)
		return ok && isIdent(mk.Fun, "make")
	}
	return false
}

// declWalks reports each range over an *ast.File's Decls whose body
// looks for function declarations.
func declWalks(pkg *packages.Package) []violation {
	var out []violation
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(rs.X).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Decls" || types.TypeString(pkg.TypesInfo.TypeOf(sel.X), nil) != "*go/ast.File" {
				return true
			}
			// A walk for declarations of other kinds (package variables)
			// names no FuncDecl.
			funcs := false
			ast.Inspect(rs.Body, func(m ast.Node) bool {
				if sel, ok := m.(*ast.SelectorExpr); ok && sel.Sel.Name == "FuncDecl" {
					funcs = true
				}
				return !funcs
			})
			if funcs {
				out = append(out, violation{rs, "walks a file's declarations for functions"})
			}
			return true
		})
	}
	return out
}

// oldHoleSyntax matches a string literal written in the text keyexpr once
// used for hole IDs ("u@", "v:x@p#u", "g:", "param:i", "safe:…", "…@callN").
var oldHoleSyntax = regexp.MustCompile(`^(u@|v:|g:|param:|safe:|opaque:|recv\.)|@call|^(dec|safe:\w+)\(`)

// holeIDsOpaque reports, outside keyexpr, what reads or builds a hole ID
// other than by comparing it: a type assertion or switch on a
// slot.HoleID, a HoleID handed to a parameter of another type (fmt's
// any, where its text would leak), a hole built with slot.HoleKey, and a
// string literal in the old ID syntax.
func holeIDsOpaque(pkg *packages.Package) []violation {
	var out []violation
	info := pkg.TypesInfo
	isHoleID := func(e ast.Expr) bool {
		t := info.TypeOf(e)
		if t == nil {
			return false
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			return false
		}
		path, name := n.Obj().Pkg().Path(), n.Obj().Name()
		return path == slotPkg && name == "HoleID" || path == keyexprPkg && name == "HoleID"
	}
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if isHoleID(n.X) {
					out = append(out, violation{n, "type assertion on a hole ID"})
				}
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == slotPkg && fn.Name() == "HoleKey" {
					out = append(out, violation{n, "a hole built outside keyexpr"})
				}
				sig, ok := types.Unalias(info.TypeOf(n.Fun)).Underlying().(*types.Signature)
				if !ok {
					if len(n.Args) == 1 && isHoleID(n.Args[0]) && !isHoleID(n) {
						out = append(out, violation{n, "a hole ID converted"})
					}
					return true
				}
				for i, a := range n.Args {
					if !isHoleID(a) {
						continue
					}
					var pt types.Type
					switch {
					case sig.Variadic() && i >= sig.Params().Len()-1:
						pt = sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
					case i < sig.Params().Len():
						pt = sig.Params().At(i).Type()
					}
					if pt == nil || !isHoleIDType(pt) {
						out = append(out, violation{a, "a hole ID passed as " + types.TypeString(pt, nil)})
					}
				}
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && oldHoleSyntax.MatchString(s) {
					out = append(out, violation{n, "hole ID text " + n.Value})
				}
			}
			return true
		})
	}
	return out
}

// isRulePackage reports whether path is a package of rules: every
// package of the analyzer but the shared internal ones. internal/redisapi
// holds the client front ends; internal/keyexpr is the key model the front
// ends call (it reads the key-making functions of the runtime); astutil
// and slotcheck read no client.
func isRulePackage(path string) bool {
	return path == modulePath+"/analyzer" ||
		strings.HasPrefix(path, modulePath+"/analyzer/") && !strings.HasPrefix(path, modulePath+"/analyzer/internal/")
}

// posNode is a node that is only a position, for a violation found by an
// AST scan that keeps positions.
type posNode token.Pos

func (p posNode) Pos() token.Pos { return token.Pos(p) }
func (p posNode) End() token.Pos { return token.Pos(p) }

// foreignWrites reports assignments to a package-level variable of
// another package.
func foreignWrites(pkg *packages.Package) []violation {
	var out []violation
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, lhs := range as.Lhs {
				sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				obj := pkg.TypesInfo.Uses[sel.Sel]
				if obj == nil || obj.Pkg() == nil || obj.Pkg() == pkg.Types || obj.Parent() != obj.Pkg().Scope() {
					continue
				}
				out = append(out, violation{lhs, "sets " + obj.Pkg().Path() + "." + obj.Name()})
			}
			return true
		})
	}
	return out
}

func isHoleIDType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Name() != "HoleID" {
		return false
	}
	p := n.Obj().Pkg().Path()
	return p == slotPkg || p == keyexprPkg
}

// badPackage type-checks a package holding one function with body, which
// may use fmt, strings, go/ast, go/types, slot, keyexpr and redisapi.
func badPackage(t *testing.T, loaded map[string]*types.Package, body string) *packages.Package {
	t.Helper()
	src := "package bad\n\nimport (\n\t\"fmt\"\n\t\"go/ast\"\n\t\"go/types\"\n\t\"strings\"\n\n\t\"" + keyexprPkg + "\"\n\t\"" + redisapiPkg + "\"\n\t\"" + slotPkg + "\"\n)\n\n" +
		"var _, _, _, _, _ = fmt.Sprint, strings.HasPrefix, slot.Literal, keyexpr.BraceFree, redisapi.ImportsClient\n\nvar _ *types.Var\n\nvar _ ast.Node\n\nfunc f() {\n\t" + body + "\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "bad.go", src, 0)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p, ok := loaded[path]; ok {
			return p, nil
		}
		return nil, fmt.Errorf("%s not loaded", path)
	})
	pkg, err := (&types.Config{Importer: imp}).Check("bad", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return &packages.Package{PkgPath: "bad", Fset: fset, Syntax: []*ast.File{f}, Types: pkg, TypesInfo: info}
}

// clientNames are names of client libraries' methods and functions whose
// calls the front ends in internal/redisapi turn into records: a rule
// that compares a name with one of them reads a client's call shape
// itself.
var clientNames = map[string]bool{
	// go-redis
	"Do": true, "Process": true, "Get": true, "Set": true, "SetNX": true, "SetEx": true, "SetArgs": true,
	"HGet": true, "HSet": true, "Expire": true, "PExpire": true, "Del": true, "Unlink": true,
	"Eval": true, "EvalSha": true, "EvalRO": true, "EvalShaRO": true, "FCall": true, "FCallRO": true,
	"Run": true, "RunRO": true, "NewScript": true, "NewScriptServerSHA": true,
	"FunctionLoad": true, "FunctionLoadReplace": true,
	"Watch": true, "Pipelined": true, "TxPipelined": true, "TxPipeline": true, "Pipeline": true, "Exec": true,
	// redigo
	"Send": true, "DoContext": true, "DoWithTimeout": true,
	// rueidis and valkey-go
	"B": true, "Build": true, "NewLuaScript": true, "NewLuaScriptReadOnly": true, "ExecMulti": true,
	"DoMulti": true, "Dedicated": true,
	// slotlint's runtime
	"Obtain": true, "Release": true,
	// Client types a call is made on, which the front ends turn into the
	// records' OnPipeline, OnWatchTx and Tx.OneNode.
	"Client": true, "ClusterClient": true, "UniversalClient": true, "Tx": true, "Pipeliner": true,
	"Cmdable": true, "Conn": true,
	// Methods of a reply value, which redisapi.ReplyMethod names.
	"Err": true, "Result": true, "Val": true,
}

// clientPathWords are parts of client libraries' import paths: a rule that
// matches a path against one decides by the client itself.
var clientPathWords = []string{"go-redis", "redigo", "rueidis", "valkey"}

// TestLayeringCatches keeps TestLayering able to fail: each way a rule
// could read a client's call shape is caught, and a message is not.
func TestLayeringCatches(t *testing.T) {
	const src = `package p

func f(a, e *event, fn *types.Func) {
	if e.call.Method != "Expire" {}                       // caught
	if fn.Name() == "NewScript" {}                        // caught
	switch name := fn.Name(); { case name == "FunctionLoad": } // caught
	switch fn.Name() { case "SetNX": }                    // caught
	if strings.HasPrefix(a.call.Method, "Script.") {}     // caught twice
	m := a.call.Method                                    // caught
	r.Report("SL1", a.at, nil, "%s", a.call.Method)
	_ = fix{Message: "set the TTL in " + a.call.Method}
	_ = rec{Method: a.call.Method}
	if fn.Name() == "Sprintf" {}
	if n.Obj().Name() == "Tx" {}                          // caught
	if sel.Sel.Name == "Err" || sel.Sel.Name == "Result" {} // caught twice
	_ = strings.Contains(n.Obj().Pkg().Path(), "go-redis") // caught
	if p.Path() == "github.com/gomodule/redigo/redis" {}  // caught
	if fn.Name() == "panic" || n.Obj().Name() == "FS" {}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]int{}
	for _, u := range methodNameUses(f) {
		lines[fset.Position(u.at).Line]++
	}
	want := map[int]int{4: 2, 5: 1, 6: 1, 7: 1, 8: 2, 9: 1, 14: 1, 15: 2, 16: 1, 17: 1}
	for line, n := range want {
		if lines[line] != n {
			t.Errorf("line %d: %d uses found, want %d", line, lines[line], n)
		}
	}
	for line, n := range lines {
		if want[line] == 0 {
			t.Errorf("line %d: %d uses found in a message or a non-client name", line, n)
		}
	}
}

// use is one place a rule reads a client's call shape.
type use struct {
	at   token.Pos
	what string
}

// methodNameUses lists, for one file, each read of a record's Method field
// that is not a message argument, and each comparison of a name with a
// client method's name.
func methodNameUses(f *ast.File) []use {
	var out []use
	// Names a local variable is given (name := fn.Name()) count as names.
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && isNameExpr(as.Rhs[i], nil) {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if n.Sel.Name == "Method" && !forMessage(stack, n) {
				out = append(out, use{n.Pos(), "reads " + types.ExprString(n) + " other than for a message"})
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if name, ok := comparedName(n.X, n.Y, names); ok {
					out = append(out, use{n.Pos(), "compares " + types.ExprString(n) + ": " + strconv.Quote(name) + " names a client method or type"})
				}
				for _, side := range []ast.Expr{n.X, n.Y} {
					if s, ok := stringLit(side); ok && clientPath(s) {
						out = append(out, use{n.Pos(), "compares " + types.ExprString(n) + " with a client path"})
					}
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isNameExpr(n.Tag, names) {
				for _, cc := range n.Body.List {
					for _, e := range cc.(*ast.CaseClause).List {
						if s, ok := stringLit(e); ok && clientNames[s] {
							out = append(out, use{e.Pos(), "switches on " + types.ExprString(n.Tag) + " with case " + strconv.Quote(s)})
						}
					}
				}
			}
		case *ast.CallExpr:
			// strings.HasPrefix(x.Name(), "...") and the like.
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && isIdent(sel.X, "strings") && len(n.Args) == 2 && isNameExpr(n.Args[0], names) {
				if s, ok := stringLit(n.Args[1]); ok && (clientNames[s] || clientPrefix(s)) {
					out = append(out, use{n.Pos(), "matches " + types.ExprString(n.Args[0]) + " against " + strconv.Quote(s)})
				}
			}
			// strings.Contains(pkg.Path(), "go-redis") and the like.
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && isIdent(sel.X, "strings") && len(n.Args) == 2 {
				if s, ok := stringLit(n.Args[1]); ok && clientPath(s) {
					out = append(out, use{n.Pos(), "matches " + types.ExprString(n.Args[0]) + " against the client path " + strconv.Quote(s)})
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

// forMessage reports whether a Method selector, whose parents stack
// holds (innermost last), is an argument of a call outside package
// strings, possibly through string concatenation, or the value of a
// Message field or of another record's Method.
func forMessage(stack []ast.Node, sel ast.Node) bool {
	child := sel
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.BinaryExpr:
			if p.Op != token.ADD {
				return false
			}
		case *ast.ParenExpr:
		case *ast.CallExpr:
			if sel, ok := p.Fun.(*ast.SelectorExpr); ok && isIdent(sel.X, "strings") {
				return false
			}
			return p.Fun != child
		case *ast.KeyValueExpr:
			return p.Value == child && (isIdent(p.Key, "Method") || isIdent(p.Key, "Message"))
		default:
			return false
		}
		child = stack[i]
	}
	return false
}

// comparedName reports whether one side of a comparison is a name (.Name,
// .Name(), .Method, or a variable given one) and the other a string
// literal naming a client method.
func comparedName(x, y ast.Expr, names map[string]bool) (string, bool) {
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		if s, ok := stringLit(pair[1]); ok && isNameExpr(pair[0], names) && clientNames[s] {
			return s, true
		}
	}
	return "", false
}

// isNameExpr reports whether e reads a Go name: x.Name(), x.Name (as
// ast.Ident and ast.SelectorExpr's Sel have), a record's Method, or a
// variable among names.
func isNameExpr(e ast.Expr, names map[string]bool) bool {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		return names[id.Name]
	}
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
		e = call.Fun
	}
	sel, ok := e.(*ast.SelectorExpr)
	return ok && (sel.Sel.Name == "Name" || sel.Sel.Name == "Method")
}

// clientPath reports whether s names a client library's import path or
// part of one.
func clientPath(s string) bool {
	for _, w := range clientPathWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// clientPrefix reports whether s starts with a client type's name and a
// dot, as the records' Method does for methods of script values
// ("Script.Run", "Lua.Exec").
func clientPrefix(s string) bool {
	for _, p := range []string{"Script.", "Lua.", "Client.", "B()."} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
