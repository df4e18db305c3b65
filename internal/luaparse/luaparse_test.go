package luaparse

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/parse"
)

// TestSameAsGopherLua: the scanner changes keep gopher-lua's parser
// exactly: over every rule case of the repository and over inputs aimed at
// the scanner (line breaks of every kind, long brackets, escapes, numbers,
// comments, unterminated tokens), the syntax tree and the error text are
// those of gopher-lua's own parse package.
func TestSameAsGopherLua(t *testing.T) {
	inputs := map[string][]byte{
		"crlf": []byte("local a = 1\r\nlocal b = 2\n\rreturn a\r\r+ b\n"),
		"long": []byte("local s = [==[\nx]]y]=]\n]==] .. [[\r\nz]]\nreturn s"),
		"escapes": []byte(`return "\a\b\f\n\r\t\v\\\"\'\65\0101x\
y", 'q'`),
		"numbers":     []byte("return 0x1F, 1e10, 3.25e-2, .5, 5., 0XaB, 1E+3"),
		"comments":    []byte("--[[ block\n]] local x = 1 --[==[ x ]==]\n-- line\nreturn x --"),
		"call-line":   []byte("local f = print\nf\n('x')\n"),
		"unterm":      []byte("return 'abc"),
		"unterm-long": []byte("return [[abc"),
		"bad-hex":     []byte("return 0x"),
		"eof":         []byte("if x then"),
		"near":        []byte("local = 1"),
		"at":          []byte("return @x"),
		"empty":       nil,
	}
	err := filepath.WalkDir("../../testdata/lua", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
			return err
		}
		src, err := os.ReadFile(path)
		inputs[path] = src
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for name, src := range inputs {
		want, wantErr := parse.Parse(bytes.NewReader(src), name)
		got, gotErr := Parse(src, name)
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Errorf("%s: error %v, gopher-lua gives %v", name, gotErr, wantErr)
			continue
		}
		// DeepEqual follows the nodes and compares every field, lines
		// included (the dump leaves them out).
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the AST differs from gopher-lua's", name)
		}
	}
}
