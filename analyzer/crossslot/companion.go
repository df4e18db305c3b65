package crossslot

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// companions reports a key without a hash tag whose callee derives another
// key from it and needs that one in the same slot (a runtime lock key and
// its wake-up list): the two texts hash apart unless the key has a tag.
// Only keys that provably have no tag count: a key passed in whole is its
// builder's to judge, and an empty or unclosed tag is hashtag's finding.
func companions(pass *analysis.Pass, r *report.Reporter, res *redisapi.Result, cfg *config.Config, call *redisapi.Call) {
	for _, c := range call.Companions {
		if _, ok := c.Of.Key.SoleHole(); ok {
			continue
		}
		a := slot.Analyze(c.Of.Key, cfg.Slot)
		if a.Kind != slot.TagNone || a.EmptyTag || a.Unclosed {
			continue
		}
		given, derived := c.Of.Key.String(), c.Key.String()
		id, where := rules.NoCommonTag, "is not in its slot"
		from, okFrom := slot.SlotOf(c.Of.Key, cfg.Slot)
		to, okTo := slot.SlotOf(c.Key, cfg.Slot)
		if okFrom && okTo && from != to {
			id, where = rules.SlotsDiffer, "is in another slot"
			given += " (slot " + strconv.Itoa(from) + ")"
			derived += " (slot " + strconv.Itoa(to) + ")"
		}
		r.Report(id, call.Node, runtimeKeyFix(pass, res, call, c.Of),
			"%s key %s has no hash tag, so its %s %s %s: %s fails with ErrCrossSlot",
			call.Command, given, c.What, derived, where, call.Command)
	}
}

// runtimeKeyFix rewrites a lock key built in place as the runtime asks for
// it, with runtime.Key: "order:" + id + ":lock" and
// fmt.Sprintf("order:%s:lock", id) become runtime.Key("order", id, "lock"),
// and the constant "order:42" runtime.Key("order", "42"). A constant with
// no ':' to split at becomes its own tag, "{name}". The file must import
// the runtime already.
func runtimeKeyFix(pass *analysis.Pass, res *redisapi.Result, call *redisapi.Call, k keyexpr.Elem) []analysis.SuggestedFix {
	if k.Expr == nil || k.Loop != nil {
		return nil
	}
	e := ast.Unparen(k.Expr)
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if s, ok := res.Keys.Key(lit).Literal(); ok && s != "" && !strings.ContainsAny(s, "{}") && !strings.Contains(s, ":") {
			return []analysis.SuggestedFix{{
				Message:   "make the whole key its hash tag",
				TextEdits: []analysis.TextEdit{{Pos: lit.Pos(), End: lit.End(), NewText: []byte(strconv.Quote("{" + s + "}"))}},
			}}
		}
	}
	pkg := runtimeName(pass, call.Node.Pos())
	if pkg == "" {
		return nil
	}
	args, ok := keyArgs(pass, res, e)
	if !ok {
		return nil
	}
	text := pkg + ".Key(" + strings.Join(args, ", ") + ")"
	return []analysis.SuggestedFix{{
		Message:   "build the key with " + text + ", whose id is its hash tag",
		TextEdits: []analysis.TextEdit{{Pos: k.Expr.Pos(), End: k.Expr.End(), NewText: []byte(text)}},
	}}
}

// keyArgs splits a key written as "family:" + id + ":rest", the same as a
// Sprintf format with one %s of a string, or a constant "family:id:rest",
// into runtime.Key's arguments, in Go syntax.
func keyArgs(pass *analysis.Pass, res *redisapi.Result, e ast.Expr) ([]string, bool) {
	if s, ok := res.Keys.Key(e).Literal(); ok {
		family, rest, ok := strings.Cut(s, ":")
		if !ok || family == "" || strings.ContainsAny(s, "{}") {
			return nil, false
		}
		id, tail, _ := strings.Cut(rest, ":")
		return keyParts(family, strconv.Quote(id), tail)
	}
	var before, after string
	var id ast.Expr
	switch x := e.(type) {
	case *ast.BinaryExpr:
		var ops []ast.Expr
		if !flattenAdd(x, &ops) || len(ops) < 2 || len(ops) > 3 {
			return nil, false
		}
		var ok bool
		if before, ok = astutil.ConstString(pass.TypesInfo, ops[0]); !ok {
			return nil, false
		}
		id = ops[1]
		if len(ops) == 3 {
			if after, ok = astutil.ConstString(pass.TypesInfo, ops[2]); !ok {
				return nil, false
			}
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(pass.TypesInfo, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(x.Args) != 2 || x.Ellipsis.IsValid() {
			return nil, false
		}
		format, ok := astutil.ConstString(pass.TypesInfo, x.Args[0])
		if !ok || strings.Count(format, "%") != 1 {
			return nil, false
		}
		before, after, _ = strings.Cut(format, "%s")
		if before+"%s"+after != format {
			return nil, false
		}
		id = x.Args[1]
	default:
		return nil, false
	}
	t := pass.TypesInfo.TypeOf(id)
	if _, isConst := astutil.ConstString(pass.TypesInfo, id); isConst || t == nil || !astutil.IsString(t) {
		return nil, false
	}
	if !strings.HasSuffix(before, ":") || strings.ContainsAny(before+after, "{}") || after != "" && !strings.HasPrefix(after, ":") {
		return nil, false
	}
	idText := types.ExprString(id)
	if !types.Identical(t, types.Typ[types.String]) {
		// A named string type: runtime.Key takes a string. One with
		// methods may print otherwise with %s (a String method).
		if types.NewMethodSet(t).Len() > 0 {
			return nil, false
		}
		idText = "string(" + idText + ")"
	}
	return keyParts(strings.TrimSuffix(before, ":"), idText, strings.TrimPrefix(after, ":"))
}

// keyParts is runtime.Key's argument list: the family, the id (in Go
// syntax) and the text after the id's ':', if any.
func keyParts(family, id, tail string) ([]string, bool) {
	if family == "" {
		return nil, false
	}
	args := []string{strconv.Quote(family), id}
	if tail != "" {
		args = append(args, strconv.Quote(tail))
	}
	return args, true
}

func flattenAdd(e ast.Expr, ops *[]ast.Expr) bool {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok {
		if b.Op != token.ADD {
			return false
		}
		return flattenAdd(b.X, ops) && flattenAdd(b.Y, ops)
	}
	*ops = append(*ops, e)
	return true
}

// runtimeName is the name the file holding pos imports the runtime under,
// or "" when it does not import it by name.
func runtimeName(pass *analysis.Pass, pos token.Pos) string {
	for _, f := range pass.Files {
		if f.FileStart > pos || pos >= f.FileEnd {
			continue
		}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || path != keyexpr.RuntimePackage {
				continue
			}
			if spec.Name == nil {
				return "runtime"
			}
			if spec.Name.Name == "_" || spec.Name.Name == "." {
				return ""
			}
			return spec.Name.Name
		}
	}
	return ""
}
