package astutil

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

const helpersSrc = `package p

type name string

const big = 1 << 70

var (
	s    = "a" + "b"
	n    = 3 * 4
	nm   name
	v    = s
	huge = big >> 65
)

func outer() {
	_ = func() {
		_ = "in literal"
	}
	_ = "in outer"
}
`

func check(t *testing.T) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", helpersSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return fset, f, info
}

// value returns the expression given to the package-level variable name.
func value(f *ast.File, name string) ast.Expr {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, s := range g.Specs {
				if v, ok := s.(*ast.ValueSpec); ok && v.Names[0].Name == name && len(v.Values) > 0 {
					return v.Values[0]
				}
			}
		}
	}
	return nil
}

func TestConstants(t *testing.T) {
	_, f, info := check(t)
	if got, ok := ConstString(info, value(f, "s")); !ok || got != "ab" {
		t.Errorf(`ConstString(s) = %q, %v; want "ab"`, got, ok)
	}
	if _, ok := ConstString(info, value(f, "n")); ok {
		t.Error("ConstString of an integer succeeded")
	}
	if _, ok := ConstString(info, value(f, "v")); ok {
		t.Error("ConstString of a variable succeeded")
	}
	if got, ok := ConstInt(info, value(f, "n")); !ok || got != 12 {
		t.Errorf("ConstInt(n) = %d, %v; want 12", got, ok)
	}
	if got, ok := ConstInt(info, value(f, "huge")); !ok || got != 32 {
		t.Errorf("ConstInt(huge) = %d, %v; want 32", got, ok)
	}
	if _, ok := ConstInt(info, nil); ok {
		t.Error("ConstInt(nil) succeeded")
	}
	if _, ok := ConstInt(info, value(f, "s")); ok {
		t.Error("ConstInt of a string succeeded")
	}
}

func TestIsString(t *testing.T) {
	_, f, info := check(t)
	var nm types.Type
	for id, obj := range info.Defs {
		if id.Name == "nm" {
			nm = obj.Type()
		}
	}
	for _, c := range []struct {
		what string
		t    types.Type
		want bool
	}{
		{"string", types.Typ[types.String], true},
		{"untyped string", types.Typ[types.UntypedString], true},
		{"named string", nm, true},
		{"int", info.Types[value(f, "n")].Type, false},
		{"[]byte", types.NewSlice(types.Typ[types.Byte]), false},
	} {
		if got := IsString(c.t); got != c.want {
			t.Errorf("IsString(%s) = %v", c.what, got)
		}
	}
}

func TestIsStandard(t *testing.T) {
	for _, c := range []struct {
		path, module string
		want         bool
	}{
		{"net/http", "", true},
		{"fmt", "", true},
		{"example.com/x", "", false},
		{"local/x", "local", false},
	} {
		pass := &analysis.Pass{Pkg: types.NewPackage(c.path, "x")}
		if c.module != "" {
			pass.Module = &analysis.Module{Path: c.module}
		}
		if got := IsStandard(pass); got != c.want {
			t.Errorf("IsStandard(%s, module %q) = %v", c.path, c.module, got)
		}
	}
}

func TestEnclosingFunc(t *testing.T) {
	fset, f, _ := check(t)
	ins := inspector.New([]*ast.File{f})
	lits := map[string]token.Pos{}
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BasicLit); ok {
			lits[b.Value] = b.Pos()
		}
		return true
	})
	if fn, ok := EnclosingFuncAt(ins, lits[`"in literal"`]).(*ast.FuncLit); !ok {
		t.Errorf("in the literal: %T, want *ast.FuncLit", fn)
	}
	if fn, ok := EnclosingFuncAt(ins, lits[`"in outer"`]).(*ast.FuncDecl); !ok || fn.Name.Name != "outer" {
		t.Errorf("in outer: %v, want outer", fn)
	}
	if fn := EnclosingFuncAt(ins, lits[`"a"`]); fn != nil {
		t.Errorf("at package level: %v at %s, want nil", fn, fset.Position(fn.Pos()))
	}
	// From a cursor: the literal's own node is its enclosing function.
	for c := range ins.Root().Preorder((*ast.FuncLit)(nil)) {
		if got := EnclosingFunc(c); got != c.Node() {
			t.Errorf("EnclosingFunc(literal) = %v, want the literal", got)
		}
	}
}
