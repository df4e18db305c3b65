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

// TestRedigo checks each rule's findings on redigo command lines,
// transactions and scripts.
func TestRedigo(t *testing.T) {
	dir := clientModule(t, "redigo")
	analysistest.Run(t, dir, crossslot.Analyzer, "./crossslot")
	analysistest.Run(t, dir, txslot.Analyzer, "./txslot")
	analysistest.Run(t, dir, scriptkeys.Analyzer, "./scriptkeys")
	analysistest.Run(t, dir, luascript.Analyzer, "./luascript")
	analysistest.Run(t, dir, lockcheck.Analyzer, "./lockcheck")
}

// TestRedigoClean: no analyzer of the suite reports on clean redigo code:
// pipelines, other connections, commands after EXEC, shared tags.
func TestRedigoClean(t *testing.T) {
	dir := clientModule(t, "redigo")
	suiteIsSilent(t, dir, "./clean")
}
