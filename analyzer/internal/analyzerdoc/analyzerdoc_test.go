package analyzerdoc

import (
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
