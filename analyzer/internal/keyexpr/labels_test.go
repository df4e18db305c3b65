package keyexpr

import (
	"go/ast"
	"go/parser"
	"go/types"
	"testing"
)

func TestCallLabel(t *testing.T) {
	str := types.Typ[types.String]
	params := types.NewTuple(
		types.NewParam(0, nil, "key", str),
		types.NewParam(0, nil, "n", types.Typ[types.Int]),
		types.NewParam(0, nil, "_", str),
	)
	sig := types.NewSignatureType(nil, nil, nil, params, nil, false)
	for _, c := range []struct{ label, call, want string }{
		{"hash(key, n)", "f(id, cur)", "hash(id, cur)"},
		// A name after a dot is a field's or a method's.
		{"cfg.key + key", "f(id, 1)", "cfg.key + id"},
		{"hash(key, n * 2)", "f(id, i + 1)", "hash(id, (i + 1) * 2)"},
		{"hash(key, n * 2)", "f(id, -i)", "hash(id, (-i) * 2)"},
		{"hash(key, n)", "f(a.b[0], g(x))", "hash(a.b[0], g(x))"},
		// No parameter named in the label: the label as it was.
		{"time.Now().Unix()", "f(id, 1)", "time.Now().Unix()"},
		// "_" is never bound; a call with fewer arguments binds what it has.
		{"_ + key", "f(id)", "_ + id"},
		// A label cut at maxLabel still scans; the result is cut again.
		{"hash(key, n, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...", "f(someLongerArgument, n)", "hash(someLongerArgument, n, aaaaaaaaaaaaaaaaaaaaaaaaaaaaa..."},
		{"", "f(id, 1)", ""},
	} {
		e, err := parser.ParseExpr(c.call)
		if err != nil {
			t.Fatal(err)
		}
		if got := callLabel(c.label, sig, e.(*ast.CallExpr)); got != c.want {
			t.Errorf("callLabel(%q, %s) = %q, want %q", c.label, c.call, got, c.want)
		}
	}
}

func FuzzCallLabel(f *testing.F) {
	f.Add("hash(key, n * 2)", "f(id, i + 1)")
	f.Add("\"a\" + key + `b", "f(x)")
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(
		types.NewParam(0, nil, "key", types.Typ[types.String]),
		types.NewParam(0, nil, "n", types.Typ[types.Int]),
	), nil, false)
	f.Fuzz(func(t *testing.T, label, call string) {
		e, err := parser.ParseExpr(call)
		if err != nil {
			return
		}
		ce, ok := e.(*ast.CallExpr)
		if !ok {
			return
		}
		got := callLabel(label, sig, ce)
		if len(got) > max(len(label), maxLabel) {
			t.Errorf("callLabel(%q, %q) = %q: longer than %d", label, call, got, maxLabel)
		}
	})
}
