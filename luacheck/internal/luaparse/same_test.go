package luaparse

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/parse"
)

// edgeCases exercise the scanner paths that changed: end of input inside
// every kind of token, line breaks in all four spellings, escapes, long
// brackets and comments, and syntax errors.
var edgeCases = []string{
	"",
	"return 1",
	"local a = 1\r\nlocal b = 2\n\rlocal c = 3\rreturn a + b + c\n",
	"return 'a\\\r\nb', \"c\\\n\rd\", '\\97\\0\\255x\\z'",
	"return [[\nx]], [==[a]]b]=]c]==], [=[\r\n]=]",
	"--[[ long\ncomment ]] return 1 --[==[ x ]==]\n-- tail",
	"--[[ unterminated",
	"--[=x",
	"return 'unterminated",
	"return \"line\nbreak\"",
	"return [[unterminated",
	"return [=x",
	"return 0x, 0xfg, 1e, 1e+, 1e-5, .5, 3., 0.5e10, 09, 0A",
	"return 1e\n5",
	"local t = {1, 2; 3, a = 4, [5] = 6,}",
	"a.b.c:d(1)(2)\n(f)()",
	"f\n(g)",
	"x = ~ 1",
	"x = a ~= b and c <= d or e >= f or g == h or not i",
	"goto done ::done::",
	"local function f(...) return ... end",
	"function a.b.c:m(x, y, ...) end",
	"for i = 1, 10, 2 do end for k, v in pairs(t) do end",
	"while true do break end repeat until false",
	"if a then elseif b then else end",
	"return #t .. 'x' .. -y ^ 2 % 3 / 4 * 5 - 6",
	"x = @",
	"local",
	"return end",
	"if a then",
	"x = (((((1)))))",
	strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300),
	strings.Repeat("x = {", 100) + strings.Repeat("}", 100),
	"\xEF\xBB\xBFreturn 1",
	"return '\xff\xfe'",
	"a = 1;;; b = 2",
	"return ...",
	"x = function() end",
}

func parseBoth(t *testing.T, src []byte) {
	t.Helper()
	want, werr := parse.Parse(bytes.NewReader(src), "x.lua")
	got, gerr := Parse(src, "x.lua")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: AST differs from upstream\ngot:  %s\nwant: %s", src, parse.Dump(got), parse.Dump(want))
	}
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%q: error %v, upstream %v", src, gerr, werr)
	}
	if werr == nil {
		return
	}
	var ge *Error
	var we *parse.Error
	if errors.As(werr, &we) != errors.As(gerr, &ge) {
		t.Fatalf("%q: error %T, upstream %T", src, gerr, werr)
	}
	if we != nil && (ge.Pos != we.Pos || ge.Message != we.Message || ge.Token != we.Token) {
		t.Fatalf("%q: error %+v, upstream %+v", src, *ge, *we)
	}
	if gerr.Error() != werr.Error() {
		t.Fatalf("%q: error %q, upstream %q", src, gerr, werr)
	}
}

func seeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, c := range edgeCases {
		out = append(out, []byte(c))
	}
	for _, dir := range []string{"../../../testdata/lua"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
				return err
			}
			src, err := os.ReadFile(path)
			out = append(out, src)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestSameAsUpstream: the same AST and the same error as gopher-lua's
// parser on every rule case and the edge cases above.
func TestSameAsUpstream(t *testing.T) {
	for _, src := range seeds(t) {
		parseBoth(t, src)
	}
}

func FuzzSameAsUpstream(f *testing.F) {
	for _, src := range seeds(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			return
		}
		parseBoth(t, src)
	})
}

// BenchmarkParse compares this parser with upstream's on the rule cases.
func BenchmarkParse(b *testing.B) {
	srcs := seeds(b)
	var size int64
	for _, s := range srcs {
		size += int64(len(s))
	}
	b.Run("luaparse", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range srcs {
				Parse(s, "x")
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range srcs {
				parse.Parse(bytes.NewReader(s), "x")
			}
		}
	})
}
