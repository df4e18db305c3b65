package crossslot_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/crossslot"
)

func TestCrossSlot(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./crossslot")
}

// TestSuggestedFix checks the {} wrapping against the golden file.
func TestSuggestedFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./fix")
}
