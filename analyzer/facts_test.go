package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/hashtag"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
)

// TestKeyBuilderFacts checks the facts recorded for builders of a package
// that does not import go-redis, and their use by rules in an importing
// package.
func TestKeyBuilderFacts(t *testing.T) {
	dir := filepath.Join("testdata")
	analysistest.Run(t, dir, keyexpr.Analyzer, "./facts/keys")
	analysistest.Run(t, dir, crossslot.Analyzer, "./facts/use")
	analysistest.Run(t, dir, hashtag.Analyzer, "./facts/usetag")
}
