package crossslot_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestCrossSlot(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./crossslot")
}

// TestSuggestedFix checks the {} wrapping against the golden file.
func TestSuggestedFix(t *testing.T) {
	suitetest.WantsFixes(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./fix")
}
