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
		case t.typ == '{' && i+1 < len(l) && l[i+1].typ == '{' && l[i+1].start == t.end && c.closesTemplate(i+2):
			c.reportCol(int(t.line), int(t.col), RuleSyntax, "the file is a template with {{ ... }} placeholders, not Lua: render it before checking")
			return true
		}
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
