package keyexpr

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"strings"
)

// maxLabel is the longest label a hole keeps; longer texts end in "...".
const maxLabel = 60

func label(e ast.Expr) string { return clip(types.ExprString(e)) }

func clip(s string) string {
	if len(s) > maxLabel {
		s = s[:maxLabel-3] + "..."
	}
	return s
}

// callLabel is the label of a helper's own value as the call reads it: the
// helper's parameter names in lbl replaced by the call's arguments. Two
// calls of one key builder with other arguments then print two texts
// (windowHash(key, current) and windowHash(key, previous)), not the
// builder's one (windowHash(key, window)) twice. A name after a dot is a
// field or a method and stays; an argument that is not a primary
// expression is parenthesised, so the text keeps its meaning.
func callLabel(lbl string, sig *types.Signature, call *ast.CallExpr) string {
	// Most labels name no parameter (a literal, a package variable):
	// the scanner runs only for those whose text holds one.
	args := map[string]ast.Expr{}
	for i := range min(sig.Params().Len(), len(call.Args)) {
		if name := sig.Params().At(i).Name(); name != "" && name != "_" && strings.Contains(lbl, name) {
			args[name] = call.Args[i]
		}
	}
	if len(args) == 0 {
		return lbl
	}
	src := []byte(lbl)
	file := token.NewFileSet().AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var b strings.Builder
	last, prev := 0, token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if arg, ok := args[lit]; ok && tok == token.IDENT && prev != token.PERIOD {
			at := file.Offset(pos)
			b.WriteString(lbl[last:at])
			b.WriteString(argText(arg))
			last = at + len(lit)
		}
		prev = tok
	}
	if last == 0 {
		return lbl
	}
	b.WriteString(lbl[last:])
	return clip(b.String())
}

// argText is an argument's text, in parentheses unless it is one operand.
func argText(e ast.Expr) string {
	s := types.ExprString(e)
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr,
		*ast.IndexListExpr, *ast.SliceExpr, *ast.CompositeLit, *ast.TypeAssertExpr:
		return s
	}
	return "(" + s + ")"
}
