package report

import (
	"go/ast"
	"strings"
	"testing"
)

// FuzzDirective: any comment text is either not a directive or a directive
// whose IDs are upper case and whose reason holds no nested comment.
func FuzzDirective(f *testing.F) {
	for _, s := range []string{
		"//slotlint:ignore SL1002 reason", "//slotlint:ignore", "//slotlint:ignore SL1002",
		"//slotlint:ignore sl1001,SL1002 two rules // want x", "//slotlint:ignoreSL1002 x", "// slotlint:ignore SL1 x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ig, ok := parse(&ast.Comment{Text: text})
		if !ok {
			return
		}
		if !strings.HasPrefix(text, directive) {
			t.Fatalf("%q parsed as a directive", text)
		}
		for _, id := range ig.ids {
			if id != strings.ToUpper(id) || id == "" {
				t.Fatalf("%q: id %q", text, id)
			}
		}
		if strings.Contains(ig.reason, "//") {
			t.Fatalf("%q: reason %q holds a comment", text, ig.reason)
		}
	})
}

func TestDirective(t *testing.T) {
	for _, tt := range []struct {
		text, ids, reason string
		ok                bool
	}{
		{"//slotlint:ignore SL1002 single node", "SL1002", "single node", true},
		{"//slotlint:ignore sl1001,SL1003  two  rules", "SL1001,SL1003", "two rules", true},
		{"//slotlint:ignore SL1002 // want `x`", "SL1002", "", true},
		{"//slotlint:ignore SL1002", "SL1002", "", true},
		{"//slotlint:ignoreSL1002 x", "", "", false},
		{"// slotlint:ignore SL1002 x", "", "", false},
		{"//slotlint:ignore", "", "", false},
	} {
		ig, ok := parse(&ast.Comment{Text: tt.text})
		if ok != tt.ok || strings.Join(ig.ids, ",") != tt.ids || ig.reason != tt.reason {
			t.Errorf("parse(%q) = %v %q %q, want %v %q %q", tt.text, ok, ig.ids, ig.reason, tt.ok, tt.ids, tt.reason)
		}
	}
}
