package keyexpr

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
)

// assign is one write of a local variable.
type assign struct {
	pos   token.Pos
	rhs   ast.Expr     // the value written; nil when not a single expression
	add   bool         // x += rhs
	zero  bool         // var x T without a value
	block [2]token.Pos // innermost block holding the write
	fn    ast.Node     // function the write is in
	// appendArgs are the items of x = append(x, items...); spread is true
	// for append(x, ys...).
	isAppend bool
	items    []ast.Expr
	spread   bool
	index    bool // x[i] = rhs
}

// flow records, once per package, every write of every local variable, the
// loops, and which variables escape simple reasoning (address taken,
// written by a closure).
type flow struct {
	writes  map[*types.Var][]*assign
	escapes map[*types.Var]bool
	fixed   map[*types.Var]bool // parameters, range and type-switch variables
	declFn  map[*types.Var]ast.Node
	loops   [][2]token.Pos
	// returns are the blocks whose last statement is a return: a write in
	// one never reaches a use after the block.
	returns map[[2]token.Pos]bool
}

func buildFlow(info *types.Info, files []*ast.File) *flow {
	f := &flow{
		writes:  map[*types.Var][]*assign{},
		escapes: map[*types.Var]bool{},
		fixed:   map[*types.Var]bool{},
		declFn:  map[*types.Var]ast.Node{},
		returns: map[[2]token.Pos]bool{},
	}
	for _, file := range files {
		var blocks [][2]token.Pos
		var fns []ast.Node
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				switch top.(type) {
				case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
					blocks = blocks[:len(blocks)-1]
				case *ast.FuncDecl, *ast.FuncLit:
					fns = fns[:len(fns)-1]
				}
				return true
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				b := [2]token.Pos{n.Pos(), n.End()}
				blocks = append(blocks, b)
				if endsInReturn(n) {
					f.returns[b] = true
				}
			case *ast.FuncDecl:
				fns = append(fns, n)
				f.params(info, n, n.Recv, n.Type)
			case *ast.FuncLit:
				fns = append(fns, n)
				f.params(info, n, nil, n.Type)
			case *ast.ForStmt, *ast.RangeStmt:
				f.loops = append(f.loops, [2]token.Pos{n.Pos(), n.End()})
				if r, ok := n.(*ast.RangeStmt); ok {
					for _, e := range []ast.Expr{r.Key, r.Value} {
						if id, ok := e.(*ast.Ident); ok {
							if v, ok := objVar(info, id); ok {
								if r.Tok == token.DEFINE {
									f.fixed[v] = true
									f.declFn[v] = top(fns)
								} else {
									f.escapes[v] = true
								}
							}
						}
					}
				}
			case *ast.TypeSwitchStmt:
				if len(fns) > 0 {
					for _, v := range info.Implicits {
						if v, ok := v.(*types.Var); ok {
							f.fixed[v] = true
						}
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
						if v, ok := objVar(info, id); ok {
							f.escapes[v] = true
						}
					}
				}
			case *ast.IncDecStmt:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					if v, ok := objVar(info, id); ok {
						f.escapes[v] = true
					}
				}
			case *ast.ValueSpec:
				if len(fns) == 0 {
					break
				}
				for i, id := range n.Names {
					v, ok := objVar(info, id)
					if !ok {
						continue
					}
					f.declFn[v] = top(fns)
					a := &assign{pos: id.Pos(), block: top2(blocks), fn: top(fns)}
					switch {
					case len(n.Values) == 0:
						a.zero = true
					case len(n.Values) == len(n.Names):
						a.rhs = n.Values[i]
					}
					f.writes[v] = append(f.writes[v], a)
				}
			case *ast.AssignStmt:
				if len(fns) == 0 {
					break
				}
				for i, lhs := range n.Lhs {
					var rhs ast.Expr
					if len(n.Lhs) == len(n.Rhs) {
						rhs = n.Rhs[i]
					}
					if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
						if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
							if v, ok := objVar(info, id); ok {
								f.writes[v] = append(f.writes[v], &assign{pos: n.Pos(), rhs: rhs, index: true, block: top2(blocks), fn: top(fns)})
							}
						}
						continue
					}
					id, ok := ast.Unparen(lhs).(*ast.Ident)
					if !ok || id.Name == "_" {
						continue
					}
					v, ok := objVar(info, id)
					if !ok {
						continue
					}
					if n.Tok == token.DEFINE && info.Defs[id] != nil {
						f.declFn[v] = top(fns)
					}
					a := &assign{pos: n.Pos(), rhs: rhs, block: top2(blocks), fn: top(fns)}
					switch n.Tok {
					case token.ADD_ASSIGN:
						a.add = true
					case token.ASSIGN, token.DEFINE:
						if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && isBuiltin(info, call.Fun, "append") && len(call.Args) > 0 {
							if base, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok && info.Uses[base] == v {
								a.isAppend, a.items, a.spread = true, call.Args[1:], call.Ellipsis.IsValid()
							}
						}
					default:
						f.escapes[v] = true
					}
					f.writes[v] = append(f.writes[v], a)
				}
			}
			return true
		})
	}
	// A write from another function than the declaring one (a closure) is
	// not ordered with respect to reads: give up on such variables.
	for v, ws := range f.writes {
		for _, w := range ws {
			if d, ok := f.declFn[v]; ok && d != w.fn {
				f.escapes[v] = true
			}
		}
	}
	return f
}

func (f *flow) params(info *types.Info, fn ast.Node, recv *ast.FieldList, typ *ast.FuncType) {
	for _, fl := range []*ast.FieldList{recv, typ.Params, typ.Results} {
		if fl == nil {
			continue
		}
		for _, field := range fl.List {
			for _, id := range field.Names {
				if v, ok := objVar(info, id); ok {
					f.fixed[v] = true
					f.declFn[v] = fn
				}
			}
		}
	}
}

func top(fns []ast.Node) ast.Node {
	if len(fns) == 0 {
		return nil
	}
	return fns[len(fns)-1]
}

func top2(blocks [][2]token.Pos) [2]token.Pos {
	if len(blocks) == 0 {
		return [2]token.Pos{}
	}
	return blocks[len(blocks)-1]
}

func objVar(info *types.Info, id *ast.Ident) (*types.Var, bool) {
	obj := info.Defs[id]
	if obj == nil {
		obj = info.Uses[id]
	}
	v, ok := obj.(*types.Var)
	return v, ok && !v.IsField()
}

func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

func within(p token.Pos, r [2]token.Pos) bool { return r[0] <= p && p < r[1] }

// governing returns the write of v that decides its value at use, or nil
// when straight-line reasoning cannot tell: the last write before use, in a
// block enclosing use, with no write later in a loop around use.
func (f *flow) governing(v *types.Var, use token.Pos) *assign {
	var last *assign
	for _, w := range f.writes[v] {
		if w.index {
			return nil
		}
		if w.pos < use && (last == nil || w.pos > last.pos) {
			last = w
		}
	}
	if last == nil || !within(use, last.block) {
		return nil
	}
	for _, l := range f.loops {
		if !within(use, l) {
			continue
		}
		for _, w := range f.writes[v] {
			if w.pos > use && within(w.pos, l) {
				return nil
			}
		}
	}
	return last
}

// endsInReturn reports whether a block's or clause's last statement is a
// return.
func endsInReturn(n ast.Node) bool {
	list := astutil.Stmts(n)
	if len(list) == 0 {
		return false
	}
	_, ok := list[len(list)-1].(*ast.ReturnStmt)
	return ok
}
