package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// TestValkey runs the rules over code written against valkey-go v1.0.79
// (a module of its own under testdata/clients/valkey), which shares
// rueidis's front end.
func TestValkey(t *testing.T) {
	dir := clientModule(t, "valkey")
	analysistest.Run(t, dir, crossslot.Analyzer, "./crossslot")
	analysistest.Run(t, dir, txslot.Analyzer, "./txslot")
	analysistest.Run(t, dir, scriptkeys.Analyzer, "./scripts")
	analysistest.Run(t, dir, lockcheck.Analyzer, "./lockcheck")
	// Clean code: no analyzer of the suite reports anything.
	suiteIsSilent(t, dir, "./clean")
}
