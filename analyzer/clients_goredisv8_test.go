package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// TestGoRedisV8 checks each rule's findings on go-redis v8 code.
func TestGoRedisV8(t *testing.T) {
	dir := clientModule(t, "goredisv8")
	analysistest.Run(t, dir, crossslot.Analyzer, "./crossslot")
	analysistest.Run(t, dir, txslot.Analyzer, "./txslot")
	analysistest.Run(t, dir, scriptkeys.Analyzer, "./scriptkeys")
	analysistest.Run(t, dir, luascript.Analyzer, "./luascript")
}

// TestGoRedisV8Clean: no analyzer of the suite reports on clean v8 code.
func TestGoRedisV8Clean(t *testing.T) {
	dir := clientModule(t, "goredisv8")
	suiteIsSilent(t, dir, "./clean")
}
