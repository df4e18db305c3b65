package analyzer_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/hashtag"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// TestKeyBuilderFacts checks the facts recorded for builders of a package
// that does not import go-redis, and their use by rules in an importing
// package.
func TestKeyBuilderFacts(t *testing.T) {
	dir := filepath.Join("testdata")
	suitetest.Wants(t, dir, keyexpr.Analyzer, "./facts/keys")
	suitetest.Wants(t, dir, crossslot.Analyzer, "./facts/use")
	suitetest.Wants(t, dir, hashtag.Analyzer, "./facts/usetag")
}
