package analyzerdoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const src = `// Package p does things.
//
// # Analyzer first
//
// first: report things that are
// wrong
//
// Details of first,
// on two lines.
//
//   - a list item
//
// # Analyzer second
//
// second: report other things
//
// # Not an analyzer
//
// Trailing text.
package p
`

func TestExtract(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"first", "report things that are wrong\n\nDetails of first,\non two lines.\n\n  - a list item"},
		{"second", "report other things"},
	} {
		got, err := Extract(src, c.name)
		if err != nil || got != c.want {
			t.Errorf("Extract(%s) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

func TestExtractErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"third", src, `no "# Analyzer third" heading`},
		{"fir", src, `no "# Analyzer fir" heading`},
		{"first", "package p\n", "no package comment"},
		{"first", "// # Analyzer first\n//\n// report things\npackage p\n", `"first: summary"`},
		{"first", "// # Analyzer first\n//\n// first:\npackage p\n", "empty summary"},
		{"first", "not go", "does not parse"},
	} {
		_, err := Extract(c.src, c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Extract(%q, %s) error = %v; want one containing %s", c.src, c.name, err, c.want)
		}
	}
}

func TestMustExtractPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustExtract of a missing section did not panic")
		}
	}()
	MustExtract(src, "third")
}

// TestLineCommentIsParsedComment: where lineComment takes a file, its text
// is go/parser's and go/ast's to the byte, on every doc.go of the module
// (the analyzers' Doc strings come from them) and on edge cases; where it
// does not, Extract's go/parser path gives the answer, errors included.
func TestLineCommentIsParsedComment(t *testing.T) {
	cases := map[string]string{
		"src":             src,
		"directives":      "//go:build linux\n\n// Package p.\n//go:embed x\n//line x.go:1\n//export f\n//extern g\n//go:\n// text\npackage p\n",
		"blank runs":      "//\n//\n// a\t \n//\n//\n//\n// b  \n//\n//\npackage p\n",
		"no space":        "//a\n//\tb\n//  c\npackage p\n",
		"clause comment":  "// Package p.\npackage p // trailing\n",
		"two groups":      "// License.\n\n// Package p.\npackage p\n",
		"gap":             "// Package p.\n\npackage p\n",
		"block":           "/* Package p. */\npackage p\n",
		"block after":     "// Package p.\n/* more */\npackage p\n",
		"indented":        "  // Package p.\npackage p\n",
		"keyword":         "// Package p.\npackage func\n",
		"underscore":      "// Package p.\npackage _\n",
		"digit":           "// Package p.\npackage 1p\n",
		"code before":     "// Package p.\nvar x int\npackage p\n",
		"tab clause":      "// Package p.\npackage\tp\n",
		"crlf":            "// Package p.\r\n// # Analyzer first\r\npackage p\r\n",
		"nul":             "// Package \x00p.\npackage p\n",
		"bad utf8":        "// Package \xffp.\npackage p\n",
		"bom":             "\uFEFF// Package p.\npackage p\n",
		"bom inside":      "// Package \uFEFFp.\npackage p\n",
		"no clause":       "// Package p.\n",
		"no newline":      "// Package p.\npackage p",
		"unicode":         "// Paquet é, 包.\npackage p\n",
		"spaces clause":   "// Package p.\npackage p   \n",
		"empty comment":   "//\npackage p\n",
		"directive only":  "//go:generate x\npackage p\n",
		"star in comment": "// a */ b /* c\npackage p\n",
	}
	files, err := filepath.Glob("../../../*/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../../analyzer/*/doc.go")
	files = append(files, more...)
	more, _ = filepath.Glob("../../../analyzer/internal/*/doc.go")
	files = append(files, more...)
	took := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[f] = string(b)
		if strings.Contains(string(b), "# Analyzer ") {
			took++
			if _, ok := lineComment(string(b)); !ok {
				t.Errorf("%s: its analyzer docs are parsed with go/parser at start-up", f)
			}
		}
	}
	if took < 10 {
		t.Errorf("%d doc.go files with analyzer sections, want the module's (at least 10)", took)
	}
	for name, c := range cases {
		got, ok := lineComment(c)
		want, err := parsedComment(c, "x")
		if !ok {
			continue
		}
		if err != nil || got != want {
			t.Errorf("%s: lineComment = %q; go/parser gives %q, %v", name, got, want, err)
		}
	}
	for _, name := range []string{"src", "directives", "blank runs", "no space", "two groups", "unicode", "empty comment"} {
		if _, ok := lineComment(cases[name]); !ok {
			t.Errorf("%s: left to go/parser", name)
		}
	}
}
