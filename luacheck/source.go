package luacheck

import (
	"bytes"
	"errors"
	"sort"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// token is what the checker keeps of a lexical token: enough to recover
// columns, which gopher-lua's AST lacks.
type token struct {
	line, col int32
	typ       int32
	text      string
}

// tokens are a script's tokens in source order.
type tokens []token

// column returns the column of the first token on line spelled text (any
// token on the line when text is empty), or 0.
func (ts tokens) column(line int, text string) int {
	i := sort.Search(len(ts), func(i int) bool { return int(ts[i].line) >= line })
	for ; i < len(ts) && int(ts[i].line) == line; i++ {
		if text == "" || ts[i].text == text {
			return int(ts[i].col)
		}
	}
	return 0
}

// deepAt is where nesting first exceeded the limit; line 0 when it did not.
type deepAt struct{ line int }

// Token types that open and close a nesting level: brackets and blocks.
// "while" and "for" open with their "do"; "elseif"/"else" stay level.
func opens(typ int) bool {
	switch typ {
	case '(', '[', '{', parse.TFunction, parse.TIf, parse.TDo, parse.TRepeat:
		return true
	}
	return false
}

func closes(typ int) bool {
	switch typ {
	case ')', ']', '}', parse.TEnd, parse.TUntil:
		return true
	}
	return false
}

// operand reports whether a token ends an operand, so a following '-' is
// binary rather than unary.
func operand(typ int) bool {
	switch typ {
	case parse.TIdent, parse.TNumber, parse.TString, parse.TNil, parse.TTrue,
		parse.TFalse, parse.T3Comma, ')', ']', '}', parse.TEnd:
		return true
	}
	return false
}

// scanTokens lexes src with gopher-lua's scanner (iterative) and measures
// bracket, block and unary-operator nesting before the parser ever sees the
// input: the parser's own stack grows with nesting. It stops at the first
// lexical error, which the parser then reports.
func scanTokens(src []byte, name string, maxDepth int) (tokens, deepAt) {
	sc := parse.NewScanner(bytes.NewReader(src), name)
	lx := &parse.Lexer{}
	ts := make(tokens, 0, len(src)/4)
	depth, unary := 0, 0
	prev := 0
	for {
		tok, err := scanOne(sc, lx)
		if err != nil || tok.Type <= 0 {
			break
		}
		lx.PrevTokenType = tok.Type
		text := tok.Str
		if text == "" && tok.Type < 256 {
			text = string(rune(tok.Type))
		}
		ts = append(ts, token{line: int32(tok.Pos.Line), col: int32(tok.Pos.Column), typ: int32(tok.Type), text: text})
		switch {
		case opens(tok.Type):
			depth++
		case closes(tok.Type):
			if depth > 0 {
				depth--
			}
		}
		// Chains of unary operators nest in the AST without brackets.
		if tok.Type == parse.TNot || tok.Type == '#' || (tok.Type == '-' && !operand(prev)) {
			unary++
		} else {
			unary = 0
		}
		if depth+unary > maxDepth {
			return ts, deepAt{line: tok.Pos.Line}
		}
		prev = tok.Type
	}
	return ts, deepAt{}
}

// scanOne calls the scanner, turning a panic into an error: the checker
// must survive any input.
func scanOne(sc *parse.Scanner, lx *parse.Lexer) (tok ast.Token, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errScanner
		}
	}()
	return sc.Scan(lx)
}

var errScanner = errors.New("scanner failed")

// checkNewSyntax reports Lua 5.2 syntax that gopher-lua accepts and Redis's
// Lua 5.1 refuses: goto and labels.
func (c *checker) checkNewSyntax() {
	for i, t := range c.toks {
		switch t.typ {
		case parse.TGoto:
			c.report(Finding{Pos: Position{Line: int(t.line), Column: int(t.col)}, Rule: RuleSyntax,
				Message: "goto is Lua 5.2 syntax: Redis runs Lua 5.1, which refuses the script"})
		case parse.T2Colon:
			// A label is "::name::"; report its opening pair only.
			if i+2 < len(c.toks) && c.toks[i+1].typ == parse.TIdent && c.toks[i+2].typ == parse.T2Colon {
				c.report(Finding{Pos: Position{Line: int(t.line), Column: int(t.col)}, Rule: RuleSyntax,
					Message: "label ::" + c.toks[i+1].text + ":: is Lua 5.2 syntax: Redis runs Lua 5.1, which refuses the script"})
			}
		}
	}
}
