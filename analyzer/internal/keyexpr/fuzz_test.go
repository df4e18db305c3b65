package keyexpr

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/slot"
)

var (
	fuzzFset = token.NewFileSet()
	// One importer for the whole run: it type-checks fmt, strconv and
	// strings from source once and caches them.
	fuzzImporter = importer.ForCompiler(fuzzFset, "source", nil)
)

const fuzzPrelude = `package p

import (
	"fmt"
	"strconv"
	"strings"
)

var _ = fmt.Sprint
var _ = strconv.Itoa
var _ = strings.Join

const prefix = "user:"

func build(id string) string { return "b:{" + id + "}" }

func f(id string, n int, ids []string) string {
	k := "k:" + id
	k += ":x"
	var ks []string
	for _, x := range ids {
		ks = append(ks, x)
	}
	_ = ks
	return `

// FuzzKey feeds arbitrary Go expressions to the extractor. Whatever type
// checks must be resolved without a panic or a hang, and a constant
// expression must resolve to exactly its value.
func FuzzKey(f *testing.F) {
	for _, s := range []string{
		`"a" + id`, `fmt.Sprintf("u:%s:%d", id, n)`, `fmt.Sprintf("%x%%%q", n, id)`,
		`fmt.Sprint(n, n, id)`, `strings.Join([]string{"a", id}, ":")`, `strconv.Itoa(n) + k`,
		`build(id) + prefix`, `strings.Join(append([]string{id}, ids...), "")`, `string([]byte(id))`,
		`prefix + "{" + strconv.FormatInt(int64(n), 10) + "}"`, `fmt.Sprintf("%[1]s", id)`, `"" + ""`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 2000 || strings.ContainsAny(expr, "\n;}") {
			return
		}
		src := fuzzPrelude + expr + "\n}\n"
		file, err := parser.ParseFile(fuzzFset, "p.go", src, 0)
		if err != nil {
			return
		}
		info := &types.Info{
			Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
			Implicits: map[ast.Node]types.Object{},
		}
		pkg, err := (&types.Config{Importer: fuzzImporter, Error: func(error) {}}).Check("p", fuzzFset, []*ast.File{file}, info)
		if err != nil {
			return
		}
		x := New(fuzzFset, pkg, info, []*ast.File{file}, nil)
		var ret ast.Expr
		ast.Inspect(file, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
				ret = r.Results[0]
			}
			return true
		})
		if ret == nil {
			return
		}
		k := x.Key(ret)
		slot.Analyze(k, slot.Options{})
		slot.Analyze(k, slot.Options{HolesMayContainBraces: true})
		x.List(ret)
		_, order := x.FuncDecls()
		for _, fn := range order {
			x.summary(fn)
		}
		if tv := info.Types[ret]; tv.Value != nil && tv.Value.Kind() == constant.String {
			if lit, ok := k.Literal(); !ok || lit != constant.StringVal(tv.Value) {
				t.Fatalf("constant %s resolved to %s", tv.Value, k)
			}
		}
	})
}
