package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// TestRueidis runs the rules over code written against rueidis v1.0.79
// (a module of its own under testdata/clients/rueidis).
func TestRueidis(t *testing.T) {
	dir := clientModule(t, "rueidis")
	// compat and compattx: rueidiscompat, read as go-redis.
	analysistest.Run(t, dir, crossslot.Analyzer, "./crossslot", "./compat")
	analysistest.Run(t, dir, txslot.Analyzer, "./txslot", "./compattx")
	analysistest.Run(t, dir, scriptkeys.Analyzer, "./scripts")
	analysistest.Run(t, dir, luascript.Analyzer, "./lua")
	analysistest.Run(t, dir, lockcheck.Analyzer, "./lockcheck")
	// Clean code: no analyzer of the suite reports anything.
	suiteIsSilent(t, dir, "./clean")
}
