package hashtag_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/hashtag"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestHashtag(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), hashtag.Analyzer, "./hashtag")
}

// TestPrefixBeforeTagStrict: a value of unknown text before the tag (a
// configurable prefix) is reported under -strict, once per key family;
// ./hashtag and ../facts/usetag hold the same shapes without -strict, quiet.
func TestPrefixBeforeTagStrict(t *testing.T) {
	saved := config.Current
	t.Cleanup(func() { config.Current = saved })
	config.Current = config.Settings{Strict: true}
	suitetest.Wants(t, filepath.Join("..", "testdata"), hashtag.Analyzer, "./strictprefix")
}

// TestBracedPrefix: by default, text before the tag is reported where the
// code visibly gives it a brace (a constant, an option, a parameter), once
// per key family, and not where every value shown is brace-free.
func TestBracedPrefix(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), hashtag.Analyzer, "./bracedprefix")
}
