package luacheck

import "sort"

// token is what the checker keeps of a lexical token: enough to recover
// columns, which gopher-lua's AST lacks, without copying text. For a
// string, start:end is its content and col its opening quote.
type token struct {
	line, col  int32
	start, end int32
	typ        int32
}

// Token types beyond single characters.
const (
	tIdent = 256 + iota
	tString
	tNumber
	tOp // multi-character operator
	tGoto
	tLabel // "::"
)

// tokens are a script's tokens in source order.
type tokens struct {
	src  []byte
	list []token
}

// column returns the column of the first token on line spelled text (any
// token on the line when text is empty), or 0.
func (ts tokens) column(line int, text string) int {
	l := ts.list
	i := sort.Search(len(l), func(i int) bool { return int(l[i].line) >= line })
	for ; i < len(l) && int(l[i].line) == line; i++ {
		if text == "" || string(ts.src[l[i].start:l[i].end]) == text {
			return int(l[i].col)
		}
	}
	return 0
}

// argAfterName returns where argument i of a call starts: the call's
// callee ends with the name token callee on line, followed by "(". When
// first is set (the argument is that name), a call whose argument i is
// another token is passed over: two calls of one function on a line are
// told apart by what they pass. Zero when no such call is found.
func (ts tokens) argAfterName(line int, callee string, i int, first string) Position {
	l := ts.list
	k := sort.Search(len(l), func(k int) bool { return int(l[k].line) >= line })
	for ; k+1 < len(l) && int(l[k].line) == line; k++ {
		if l[k].typ != tIdent || l[k+1].typ != '(' || string(ts.src[l[k].start:l[k].end]) != callee {
			continue
		}
		if t, ok := ts.nthArg(k+1, i); ok && (first == "" || t.typ == tIdent && string(ts.src[t.start:t.end]) == first) {
			return Position{Line: int(t.line), Column: int(t.col)}
		}
	}
	return Position{}
}

// nthArg is the first token of argument i of the call whose "(" is
// token open.
func (ts tokens) nthArg(open, i int) (token, bool) {
	l := ts.list
	depth, commas := 0, 0
	if i == 0 {
		if open+1 < len(l) && l[open+1].typ != ')' {
			return l[open+1], true
		}
		return token{}, false
	}
	for k := open + 1; k < len(l); k++ {
		switch l[k].typ {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return token{}, false
			}
			depth--
		case ',':
			if depth == 0 {
				if commas++; commas == i {
					if k+1 < len(l) {
						return l[k+1], true
					}
					return token{}, false
				}
			}
		}
	}
	return token{}, false
}

// deepAt is where nesting first exceeded the limit; line 0 when it did
// not. tooMany: the scan stopped at maxTokens.
type deepAt struct {
	line    int
	tooMany bool
}

// maxTokens bounds the tokens of a script the checker parses: gopher-lua's
// parser takes 50 to 100 bytes of memory per token, and the largest real
// scripts (1,000-line job-queue libraries) have about 10,000.
const maxTokens = 250_000

// scanTokens lexes src in one pass (Lua 5.1 lexical rules: comments, short
// and long strings, numbers, names, operators) and measures bracket, block
// and unary-operator nesting before the parser ever sees the input: the
// parser's own stack grows with nesting. Malformed input is scanned on a
// best-effort basis; the parser reports the error.
func scanTokens(src []byte, maxDepth int, buf []token) (tokens, deepAt) {
	ts := tokens{src: src, list: buf[:0]}
	line, lineStart := 1, 0
	var lv levels
	prevOperand := false
	n := len(src)
	newline := func(i int) int {
		// "\r\n" and "\n\r" count once, like Lua's lexer.
		if i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r') && src[i+1] != src[i] {
			i++
		}
		line++
		lineStart = i + 1
		return i + 1
	}
	// skipLong skips a long bracket body starting after "[" + level "="
	// + "[" at i; it returns the index after the closing bracket and the
	// content end.
	skipLong := func(i, level int) (int, int) {
		for i < n {
			switch src[i] {
			case '\n', '\r':
				i = newline(i)
				continue
			case ']':
				j := i + 1
				for j < n && src[j] == '=' {
					j++
				}
				if j < n && src[j] == ']' && j-i-1 == level {
					return j + 1, i
				}
			}
			i++
		}
		return n, n
	}
	// longLevel returns the level of a long bracket opening at i ("[" then
	// "=" * level then "["), or -1.
	longLevel := func(i int) int {
		j := i + 1
		for j < n && src[j] == '=' {
			j++
		}
		if j < n && src[j] == '[' {
			return j - i - 1
		}
		return -1
	}
	add := func(typ, col, start, end, ln int) {
		ts.list = append(ts.list, token{line: int32(ln), col: int32(col), start: int32(start), end: int32(end), typ: int32(typ)})
	}
	for i := 0; i < n; {
		if len(ts.list) > maxTokens {
			return ts, deepAt{line: line, tooMany: true}
		}
		c := src[i]
		col := i - lineStart + 1
		ln := line
		typ := 0
		switch {
		case c == '\n' || c == '\r':
			i = newline(i)
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && i+1 < n && src[i+1] == '-':
			i += 2
			if i < n && src[i] == '[' {
				if lv := longLevel(i); lv >= 0 {
					i, _ = skipLong(i+lv+2, lv)
					continue
				}
			}
			for i < n && src[i] != '\n' && src[i] != '\r' {
				i++
			}
			continue
		case c == '\'' || c == '"':
			j := i + 1
			for j < n && src[j] != c && src[j] != '\n' && src[j] != '\r' {
				if src[j] == '\\' && j+1 < n {
					j++
					if src[j] == '\n' || src[j] == '\r' {
						j = newline(j) - 1
					}
				}
				j++
			}
			add(tString, col, i+1, j, ln)
			i = min(j+1, n)
			typ = tString
		case c == '[' && longLevel(i) >= 0:
			lv := longLevel(i)
			next, end := skipLong(i+lv+2, lv)
			add(tString, col, i+lv+2, end, ln)
			i = next
			typ = tString
		case isNameStart(c):
			j := i + 1
			for j < n && isNameChar(src[j]) {
				j++
			}
			typ = keyword(src[i:j])
			add(typ, col, i, j, ln)
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			j, lineBreak := numberEnd(src, i)
			if lineBreak {
				// gopher-lua takes the character after an exponent mark
				// even when it is a line break, and the digits after it,
				// all in one number token.
				j = newline(j)
				for j < n && src[j] >= '0' && src[j] <= '9' {
					j++
				}
			}
			add(tNumber, col, i, j, ln)
			i = j
			typ = tNumber
		default:
			w := 1
			if i+2 < n && string(src[i:i+3]) == "..." {
				w = 3
			} else if i+1 < n {
				switch string(src[i : i+2]) {
				case "..", "==", "~=", "<=", ">=", "::":
					w = 2
				}
			}
			typ = int(c)
			if w > 1 {
				typ = tOp
				if w == 2 && c == ':' {
					typ = tLabel
				}
			}
			add(typ, col, i, i+w, ln)
			i += w
		}
		text := ""
		if typ >= tOp && typ != tString && typ != tNumber || typ == kwOther || typ == kwClose || typ == kwOpen {
			last := ts.list[len(ts.list)-1]
			text = string(src[last.start:last.end])
		}
		if lv.next(typ, text, prevOperand) > maxDepth {
			return ts, deepAt{line: ln}
		}
		prevOperand = typ == tIdent || typ == tString || typ == tNumber || typ == ')' || typ == ']' || typ == '}' || typ == kwValue ||
			(typ == tOp && i >= 3 && string(src[i-3:i]) == "...")
	}
	return ts, deepAt{}
}

// levels follows the nesting Lua 5.1's parser counts against its limit of
// 200 "syntax levels" (LUAI_MAXCCALLS): one for the chunk, one per block
// (function body, do, then, else, repeat), one per expression and per
// sub-expression in brackets, one per unary operator, and one per operator
// of a right-associative chain ("a .. b .. c", "a ^ b ^ c"), whose AST
// nests as deep and whose parse in gopher-lua costs about 1.6 KB of stack
// per term. The thresholds of each form match a real server's (a test
// checks them).
type levels struct {
	depth int // open brackets and blocks
	// expr, unary and chain are the current frame's; saved is their sum
	// over the frames outside it.
	expr, unary, chain int
	saved              int
	frames             []levelFrame
}

type levelFrame struct {
	expr, unary, chain int
	bracket            bool
}

func (l *levels) bracket() bool {
	return len(l.frames) > 0 && l.frames[len(l.frames)-1].bracket
}

func (l *levels) push(bracket bool) {
	l.frames = append(l.frames, levelFrame{l.expr, l.unary, l.chain, bracket})
	l.saved += l.expr + l.unary + l.chain
	l.depth++
	l.expr, l.unary, l.chain = 0, 0, 0
}

func (l *levels) pop() {
	if len(l.frames) == 0 {
		return
	}
	f := l.frames[len(l.frames)-1]
	l.frames = l.frames[:len(l.frames)-1]
	l.saved -= f.expr + f.unary + f.chain
	l.depth--
	l.expr, l.unary, l.chain = f.expr, f.unary, f.chain
}

// next takes a token and returns the level it stands at. An opening
// bracket stands at its outer level: "{}" and "f()" open no expression in
// Lua.
func (l *levels) next(typ int, text string, prevOperand bool) int {
	opener := 0
	unary := typ == kwNot || typ == '#' || (typ == '-' && !prevOperand)
	switch {
	case typ == '(' || typ == '[' || typ == '{':
		l.push(true)
		opener = 1
	case typ == kwOpen:
		if text == "do" {
			// A loop's header expression ends at its body.
			l.expr, l.chain, l.unary = 0, 0, 0
		}
		if text == "if" {
			// The condition sits at the if statement's level, where
			// Lua counts its expression: the block's level stands in.
			l.push(false)
			l.expr = 0
		} else {
			l.push(false)
		}
	case typ == ')' || typ == ']' || typ == '}':
		l.pop()
	case typ == kwClose:
		l.pop()
		if text == "until" {
			l.expr, l.chain = 1, 0
		}
	case typ == '^' || text == "..":
		l.chain++
	case typ == '=' || typ == kwOther && (text == "return" || text == "while" || text == "in" || text == "elseif"):
		l.chain = 0
		if !l.bracket() {
			l.expr = 1
		}
		if text == "elseif" {
			l.expr = 0 // as for if
		}
	case typ == kwOther && (text == "and" || text == "or"), typ == tOp, typ == '<', typ == '>', typ == ',':
		l.chain = 0 // a lower-priority operator or the next expression
	case typ == kwOther, typ == ';', (typ == tIdent || typ == tString || typ == tNumber || typ == kwValue) && prevOperand:
		// A new statement (or then, do's body, else).
		l.expr, l.chain = 0, 0
	}
	if unary {
		l.unary++
	} else if typ != '(' && typ != '[' && typ != '{' {
		l.unary = 0
	}
	return 1 + l.depth + l.saved + l.expr + l.unary + l.chain - opener
}

// Keyword classes for the nesting scan.
const (
	kwOpen  = tLabel + 1 + iota // function if do repeat
	kwClose                     // end until
	kwNot
	kwValue // nil true false: operands
	kwOther
)

func keyword(b []byte) int {
	switch string(b) {
	case "function", "if", "do", "repeat":
		return kwOpen
	case "end", "until":
		return kwClose
	case "not":
		return kwNot
	case "nil", "true", "false":
		return kwValue
	case "goto":
		return tGoto
	case "and", "or", "break", "else", "elseif", "for", "in", "local", "return", "then", "while":
		return kwOther
	}
	return tIdent
}

// numberEnd returns the end of the number starting at i, following
// gopher-lua's lexer (whose positions the AST carries) rather than Lua's
// greedier one: "0A" is the number 0 then the name A. lineBreak says the
// number stops at a line break that gopher-lua takes as the character
// after its exponent mark: the caller counts the line and goes on.
func numberEnd(src []byte, i int) (end int, lineBreak bool) {
	n := len(src)
	isDec := func(j int) bool { return j < n && src[j] >= '0' && src[j] <= '9' }
	if src[i] == '0' && i+1 < n && (src[i+1] == 'x' || src[i+1] == 'X') {
		j := i + 2
		for j < n && (isDec(j) || src[j] >= 'a' && src[j] <= 'f' || src[j] >= 'A' && src[j] <= 'F') {
			j++
		}
		return j, false
	}
	j := i + 1
	for isDec(j) {
		j++
	}
	if j < n && src[j] == '.' { // after ".5" too: gopher-lua reads ".5.5" as one number
		j++
		for isDec(j) {
			j++
		}
	}
	if j < n && (src[j] == 'e' || src[j] == 'E') {
		j++
		if j < n && (src[j] == '-' || src[j] == '+') {
			j++
		}
		// gopher-lua takes one more character whatever it is.
		if j < n && (src[j] == '\n' || src[j] == '\r') {
			return j, true
		}
		if j < n {
			j++
		}
		for isDec(j) {
			j++
		}
	}
	return j, false
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// checkNewSyntax reports Lua 5.2 syntax that gopher-lua accepts and Redis's
// Lua 5.1 refuses: goto and labels. It runs after a successful parse, so
// "goto" here is the statement, not a name.
func (c *checker) checkNewSyntax() {
	l := c.toks.list
	for i, t := range l {
		switch t.typ {
		case tGoto:
			c.report(Finding{Pos: Position{Line: int(t.line), Column: int(t.col)}, Rule: RuleSyntax,
				Message: "goto is Lua 5.2 syntax: Redis runs Lua 5.1, which refuses the script"})
		case tLabel:
			// A label is "::name::"; report its opening pair only.
			if i+2 < len(l) && l[i+1].typ == tIdent && l[i+2].typ == tLabel {
				name := string(c.toks.src[l[i+1].start:l[i+1].end])
				c.report(Finding{Pos: Position{Line: int(t.line), Column: int(t.col)}, Rule: RuleSyntax,
					Message: "label ::" + name + ":: is Lua 5.2 syntax: Redis runs Lua 5.1, which refuses the script"})
			}
		}
	}
}
