package analyzer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rulePackages are the directories below analyzer/ whose non-test files
// must keep to the layering rules: every package but the shared internal
// ones. internal/redisapi holds the client front ends; internal/keyexpr
// is the key model the front ends call (it reads the key-making functions
// of the runtime); astutil and slotcheck read no client.
func rulePackages(t *testing.T, fset *token.FileSet) map[string][]*ast.File {
	t.Helper()
	pkgs := map[string][]*ast.File{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || path == "internal" || strings.HasPrefix(path, "internal"+string(filepath.Separator)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		pkgs[dir] = append(pkgs[dir], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 5 {
		t.Fatalf("found %d rule packages: the walk is not where it should be", len(pkgs))
	}
	return pkgs
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
}

// TestLayering: rules read the client-neutral records of
// internal/redisapi. They never decide by the Go method a call was written
// with: the records' Method field is for messages (a format argument, or
// part of a string built for one), and no name is compared with a client
// method's name.
func TestLayering(t *testing.T) {
	fset := token.NewFileSet()
	for _, files := range rulePackages(t, fset) {
		for _, f := range files {
			for _, u := range methodNameUses(f) {
				t.Errorf("%s: %s", fset.Position(u.at), u.what)
			}
		}
	}
}

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
	want := map[int]int{4: 2, 5: 1, 6: 1, 7: 1, 8: 2, 9: 1}
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
					out = append(out, use{n.Pos(), "compares " + types.ExprString(n) + ": " + strconv.Quote(name) + " names a client method"})
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
