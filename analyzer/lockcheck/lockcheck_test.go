package lockcheck_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/lockcheck"
)

func TestLockcheck(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "testdata"), lockcheck.Analyzer, "./lockcheck")
}

// TestSuggestedFix checks SETNX(k, v, 0) + EXPIRE(k, d) → SETNX(k, v, d)
// against the golden file.
func TestSuggestedFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join("..", "testdata"), lockcheck.Analyzer, "./lockfix")
}
