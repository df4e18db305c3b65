package luascript

import (
	"errors"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestEmbedPatterns(t *testing.T) {
	got := embedPatterns(` lua/a.lua "lua/b c.lua"  all:lua/d  ` + "`e.lua`")
	want := []string{"lua/a.lua", "lua/b c.lua", "lua/d", "e.lua"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("embedPatterns = %q, want %q", got, want)
	}
	if got := embedPatterns(`"unterminated`); len(got) != 0 {
		t.Errorf("unterminated quote: %q", got)
	}
}

func TestEmbedMatches(t *testing.T) {
	for _, c := range []struct {
		patterns []string
		name     string
		want     bool
	}{
		{[]string{"lua/*.lua"}, "lua/a.lua", true},
		{[]string{"lua"}, "lua/sub/a.lua", true},
		{[]string{"lua/*.lua"}, "other/a.lua", false},
		{[]string{"a.lua"}, "b.lua", false},
	} {
		if got := embedMatches(c.patterns, c.name); got != c.want {
			t.Errorf("embedMatches(%q, %q) = %v", c.patterns, c.name, got)
		}
	}
}

// TestEmbedUnreadable: a missing, oversized or non-regular embedded file is
// a message, not a crash or an unbounded read.
func TestEmbedUnreadable(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.lua")
	if err := os.WriteFile(big, []byte(strings.Repeat("-", 11)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readBounded(big, 10); !errors.Is(err, errTooLarge) {
		t.Errorf("11 bytes over a limit of 10: err = %v", err)
	}
	if b, err := readBounded(big, 11); err != nil || len(b) != 11 {
		t.Errorf("11 bytes at a limit of 11: %d bytes, %v", len(b), err)
	}
	if _, err := readBounded(dir, 10); err == nil {
		t.Error("a directory was read")
	}

	r := &resolver{scripts: map[string]*script{}}
	d := &embedDecl{dir: dir, patterns: []string{"missing.lua"}, comment: &ast.Comment{}}
	if s := r.embedFile(d, "", nil); s == nil || s.err == "" {
		t.Errorf("missing file: %+v", s)
	}
	if s := r.embedFile(d, "missing.lua", nil); s == nil || s.err == "" || s.src != nil {
		t.Errorf("missing file by name: %+v", s)
	}
	if s := r.embedFile(d, "other.lua", nil); s != nil {
		t.Errorf("a name the patterns do not embed was read: %+v", s)
	}
}
