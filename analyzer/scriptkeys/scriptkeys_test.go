package scriptkeys_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/scriptkeys"
)

func TestScriptkeys(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "testdata"), scriptkeys.Analyzer, "./scriptkeys")
}
