package luacheck

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/parse"
)

// gopherNames lexes src with gopher-lua's own scanner and returns its
// names and keywords with their positions, or ok false when it fails.
func gopherNames(src []byte) (out []token, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	sc := parse.NewScanner(bytes.NewReader(src), "x")
	lx := &parse.Lexer{}
	for {
		tok, err := sc.Scan(lx)
		if err != nil {
			return nil, false
		}
		if tok.Type <= 0 {
			return out, true
		}
		lx.PrevTokenType = tok.Type
		if tok.Type == parse.TIdent || tok.Type >= parse.TAnd && tok.Type <= parse.TGoto {
			out = append(out, token{line: int32(tok.Pos.Line), col: int32(tok.Pos.Column)})
		}
	}
}

func ourNames(ts tokens) []token {
	var out []token
	for _, t := range ts.list {
		if t.typ == tIdent || t.typ == tGoto || t.typ >= kwOpen && t.typ <= kwOther {
			out = append(out, token{line: t.line, col: t.col})
		}
	}
	return out
}

// FuzzScanTokens: the nesting scanner never panics, keeps tokens inside
// the input, and places every name and keyword where gopher-lua's lexer
// does whenever that lexer accepts the input.
func FuzzScanTokens(f *testing.F) {
	for _, s := range []string{
		"local x = 'a\\'b' -- c\nreturn x",
		"--[==[ long\ncomment ]==] x = [[\nlong\nstring]] .. y",
		"a = 1e+5 + 0x1F - .5\r\nb = c:d(e)[f] ~= g",
		"if a then\n\treturn not - # b elseif c then do end end",
		"local s = \"multi\\\nline\"\nreturn s",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ts, _ := scanTokens(src, 1<<30, nil)
		for _, tk := range ts.list {
			if tk.start < 0 || tk.end < tk.start || int(tk.end) > len(src) || tk.line < 1 || tk.col < 1 {
				t.Fatalf("token out of bounds: %+v (input %d bytes)", tk, len(src))
			}
		}
		want, ok := gopherNames(src)
		if !ok || bytes.ContainsAny(src, "\x00") {
			return
		}
		got := ourNames(ts)
		if len(got) != len(want) {
			t.Fatalf("%d names, gopher-lua finds %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("name %d at %d:%d, gopher-lua says %d:%d", i, got[i].line, got[i].col, want[i].line, want[i].col)
			}
		}
	})
}

func TestColumnOfCommand(t *testing.T) {
	src := "local a = 1\n  local v = redis.call(\"GET\", KEYS[1]) .. redis.call('GET', 'x')\n"
	ts, _ := scanTokens([]byte(src), 200, nil)
	if c := ts.column(2, "GET"); c != 24 {
		t.Errorf("column of GET: %d, want 24", c)
	}
	if c := ts.column(2, "KEYS"); c != 31 {
		t.Errorf("column of KEYS: %d, want 31", c)
	}
	if strings.Count(src, "\n") != 2 {
		t.Fatal("test input changed")
	}
}
