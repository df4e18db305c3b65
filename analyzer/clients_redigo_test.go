package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// redigoModule is a test module of its own, pinned to redigo v1.9.3.
var redigoModule = filepath.Join("testdata", "clients", "redigo")

// TestRedigo checks each rule's findings on redigo command lines,
// transactions and scripts.
func TestRedigo(t *testing.T) {
	analysistest.Run(t, redigoModule, crossslot.Analyzer, "./crossslot")
	analysistest.Run(t, redigoModule, txslot.Analyzer, "./txslot")
	analysistest.Run(t, redigoModule, scriptkeys.Analyzer, "./scriptkeys")
	analysistest.Run(t, redigoModule, luascript.Analyzer, "./luascript")
}

// TestRedigoClean: no analyzer of the suite reports on clean redigo code:
// pipelines, other connections, commands after EXEC, shared tags.
func TestRedigoClean(t *testing.T) {
	for _, a := range analyzer.Analyzers() {
		analysistest.Run(t, redigoModule, a, "./clean")
	}
}
