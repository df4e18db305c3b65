package astutil

import (
	"go/ast"
	"go/parser"
	"testing"
)

func TestAssignedIn(t *testing.T) {
	isX := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == "x"
	}
	for _, c := range []struct {
		body       string
		addr, want bool
	}{
		{"x = 1", false, true},
		{"y, (x) = 1, 2", false, true},
		{"x++", false, true},
		{"x += 2", false, true},
		{"p := &x; _ = p", false, false},
		{"p := &x; _ = p", true, true},
		{"y = x; f(x)", true, false},
		{"func() { x = 1 }()", false, true},
	} {
		e, err := parser.ParseExpr("func() {" + c.body + "}")
		if err != nil {
			t.Fatal(err)
		}
		if got := AssignedIn(e, c.addr, isX); got != c.want {
			t.Errorf("AssignedIn(%q, addr=%v) = %v, want %v", c.body, c.addr, got, c.want)
		}
	}
}
