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

// goRedisV8Module is a test module of its own, pinned to go-redis v8.11.5.
var goRedisV8Module = filepath.Join("testdata", "clients", "goredisv8")

// TestGoRedisV8 checks each rule's findings on go-redis v8 code.
func TestGoRedisV8(t *testing.T) {
	analysistest.Run(t, goRedisV8Module, crossslot.Analyzer, "./crossslot")
	analysistest.Run(t, goRedisV8Module, txslot.Analyzer, "./txslot")
	analysistest.Run(t, goRedisV8Module, scriptkeys.Analyzer, "./scriptkeys")
	analysistest.Run(t, goRedisV8Module, luascript.Analyzer, "./luascript")
}

// TestGoRedisV8Clean: no analyzer of the suite reports on clean v8 code.
func TestGoRedisV8Clean(t *testing.T) {
	for _, a := range analyzer.Analyzers() {
		analysistest.Run(t, goRedisV8Module, a, "./clean")
	}
}
