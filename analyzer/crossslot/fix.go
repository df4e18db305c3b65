package crossslot

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/slot"
)

// fixFor offers to wrap the value every key shares in {} when that is a
// mechanical edit: each key is built in place, by + or by fmt.Sprintf with a
// constant format, holds no brace, and uses the shared value exactly once.
func fixFor(pass *analysis.Pass, res *redisapi.Result, call *redisapi.Call, keys []slotcheck.Key) []analysis.SuggestedFix {
	if !call.Complete || len(keys) < 2 {
		return nil
	}
	for _, k := range keys {
		if k.Loop != nil || k.Expr == nil || hasBrace(k.Key) {
			return nil
		}
	}
	var shared slot.HoleID
	for _, h := range keys[0].Key.Holes() {
		if count(keys[0].Key, h.ID) != 1 {
			continue
		}
		ok := true
		for _, k := range keys[1:] {
			if count(k.Key, h.ID) != 1 {
				ok = false
				break
			}
		}
		if ok {
			shared = h.ID
			break
		}
	}
	if shared == nil {
		return nil
	}
	var edits []analysis.TextEdit
	label := ""
	for _, k := range keys {
		es, lbl, ok := wrap(pass, res, k.Expr, shared)
		if !ok {
			return nil
		}
		label = lbl
		edits = append(edits, es...)
	}
	return []analysis.SuggestedFix{{
		Message:   "wrap " + label + " in {} so the keys share a hash tag",
		TextEdits: edits,
	}}
}

func hasBrace(k slot.Key) bool {
	for _, p := range k.Parts() {
		if p.Hole == nil && strings.ContainsAny(p.Lit, "{}") {
			return true
		}
	}
	return false
}

func count(k slot.Key, id slot.HoleID) int {
	n := 0
	for _, h := range k.Holes() {
		if h.ID == id {
			n++
		}
	}
	return n
}

// isHole reports whether e is exactly the shared value.
func isHole(res *redisapi.Result, e ast.Expr, id slot.HoleID) bool {
	h, ok := res.Keys.Key(e).SoleHole()
	return ok && h.ID == id
}

// isFormatted reports whether the shared value is e printed by a verb,
// such as the decimal text of an int.
func isFormatted(res *redisapi.Result, e ast.Expr, id slot.HoleID) bool {
	h, ok := res.Keys.Key(e).SoleHole()
	return ok && keyexpr.Prints(id, h.ID)
}

// wrap returns the edits that put {} around the shared value in e.
func wrap(pass *analysis.Pass, res *redisapi.Result, e ast.Expr, id slot.HoleID) ([]analysis.TextEdit, string, bool) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		return wrapSprintf(pass, res, call, id)
	}
	var ops []ast.Expr
	var flatten func(ast.Expr) bool
	flatten = func(x ast.Expr) bool {
		x = ast.Unparen(x)
		if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			return flatten(b.X) && flatten(b.Y)
		}
		ops = append(ops, x)
		return true
	}
	if b, ok := e.(*ast.BinaryExpr); !ok || b.Op != token.ADD || !flatten(e) {
		return nil, "", false
	}
	at := -1
	for i, op := range ops {
		if isHole(res, op, id) {
			if at >= 0 {
				return nil, "", false
			}
			at = i
		}
	}
	if at < 0 {
		return nil, "", false
	}
	var edits []analysis.TextEdit
	if lit, ok := stringLit(ops, at-1); ok {
		edits = append(edits, analysis.TextEdit{Pos: lit.End() - 1, End: lit.End() - 1, NewText: []byte("{")})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: ops[at].Pos(), End: ops[at].Pos(), NewText: []byte(`"{" + `)})
	}
	if lit, ok := stringLit(ops, at+1); ok {
		edits = append(edits, analysis.TextEdit{Pos: lit.Pos() + 1, End: lit.Pos() + 1, NewText: []byte("}")})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: ops[at].End(), End: ops[at].End(), NewText: []byte(` + "}"`)})
	}
	return edits, types.ExprString(ops[at]), true
}

func stringLit(ops []ast.Expr, i int) (*ast.BasicLit, bool) {
	if i < 0 || i >= len(ops) {
		return nil, false
	}
	lit, ok := ops[i].(*ast.BasicLit)
	return lit, ok && lit.Kind == token.STRING
}

// wrapSprintf wraps the verb that prints the shared value in a constant
// fmt.Sprintf format written as a plain literal.
func wrapSprintf(pass *analysis.Pass, res *redisapi.Result, call *ast.CallExpr, id slot.HoleID) ([]analysis.TextEdit, string, bool) {
	fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(call.Args) < 2 {
		return nil, "", false
	}
	lit, ok := ast.Unparen(call.Args[0]).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || strings.Contains(lit.Value, `\`) {
		return nil, "", false
	}
	if tv := pass.TypesInfo.Types[lit]; tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil, "", false
	}
	operand := -1
	for i, a := range call.Args[1:] {
		if isHole(res, a, id) || isFormatted(res, a, id) {
			if operand >= 0 {
				return nil, "", false
			}
			operand = i
		}
	}
	if operand < 0 {
		return nil, "", false
	}
	src := lit.Value // quotes included; no escapes, so offsets match
	verb := 0
	for i := 1; i < len(src)-1; i++ {
		if src[i] != '%' {
			continue
		}
		if src[i+1] == '%' {
			i++
			continue
		}
		if verb == operand {
			start := lit.Pos() + token.Pos(i)
			return []analysis.TextEdit{
				{Pos: start, End: start, NewText: []byte("{")},
				{Pos: start + 2, End: start + 2, NewText: []byte("}")},
			}, types.ExprString(call.Args[1+operand]), true
		}
		verb++
	}
	return nil, "", false
}
