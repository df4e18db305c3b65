package luacheck

import "bytes"

// template reports, once, that a script that does not parse is a template
// to be rendered before it is Lua: ERB tags (<%= ... %>), StackExchange-
// style @name parameters, or {{ ... }} placeholders. Only scripts with a
// syntax error are looked at: "{{x}}" alone is a valid Lua table.
func (c *checker) template() bool {
	if i := bytes.Index(c.src, []byte("<%")); i >= 0 && bytes.Contains(c.src[i:], []byte("%>")) {
		line, col := c.offsetPos(i)
		c.reportCol(line, col, RuleSyntax, "the file is an ERB template (<%% ... %%> tags), not Lua: render it before checking")
		return true
	}
	l := c.toks.list
	for i, t := range l {
		switch {
		case t.typ == '@' && i+1 < len(l) && l[i+1].typ == tIdent && l[i+1].start == t.end:
			c.reportCol(int(t.line), int(t.col), RuleSyntax, "the file is a template with @%s parameters (as StackExchange.Redis's LuaScript.Prepare takes), not Lua: render it before checking", c.toks.src[l[i+1].start:l[i+1].end])
			return true
		case t.typ == '%' && i+1 < len(l) && l[i+1].typ == tIdent && l[i+1].start == t.end && printfVerbs[string(c.toks.src[l[i+1].start:l[i+1].end])] && !operandBefore(l, i):
			c.reportCol(int(t.line), int(t.col), RuleSyntax, "the file is a printf-style template (%%%s where a value goes, as Go's fmt.Sprintf or C's printf fill), not Lua: render it before checking", c.toks.src[l[i+1].start:l[i+1].end])
			return true
		case t.typ == '{' && i+1 < len(l) && l[i+1].typ == '{' && l[i+1].start == t.end && c.closesTemplate(i+2):
			c.reportCol(int(t.line), int(t.col), RuleSyntax, "the file is a template with {{ ... }} placeholders, not Lua: render it before checking")
			return true
		}
	}
	return false
}

// printfVerbs are the verbs a printf-style template puts where a value
// goes ("local batch = %d").
var printfVerbs = map[string]bool{"d": true, "s": true, "v": true, "q": true, "f": true, "x": true}

// operandBefore: the token before l[i] ends an operand, so a '%' there is
// Lua's modulo ("n %d" with a local d is valid Lua and never reaches here,
// but "n % d" after a syntax error elsewhere must not be called a
// template).
func operandBefore(l []token, i int) bool {
	if i == 0 {
		return false
	}
	switch l[i-1].typ {
	case tIdent, tNumber, tString, ')', ']', '}':
		return true
	}
	return false
}

// closesTemplate: a "}}" follows within a few tokens on the same line.
func (c *checker) closesTemplate(from int) bool {
	l := c.toks.list
	for j := from; j+1 < len(l) && j < from+12 && l[j].line == l[from-1].line; j++ {
		if l[j].typ == '}' && l[j+1].typ == '}' && l[j+1].start == l[j].end {
			return true
		}
	}
	return false
}

// offsetPos is the line and column of a byte offset of the script.
func (c *checker) offsetPos(off int) (int, int) {
	line := 1 + bytes.Count(c.src[:off], []byte("\n"))
	start := bytes.LastIndexByte(c.src[:off], '\n') + 1
	return line, off - start + 1
}
