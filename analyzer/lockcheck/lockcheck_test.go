package lockcheck_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestLockcheck(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), lockcheck.Analyzer, "./lockcheck")
}

// TestSuggestedFix checks SETNX(k, v, 0) + EXPIRE(k, d) → SETNX(k, v, d)
// against the golden file.
func TestSuggestedFix(t *testing.T) {
	suitetest.WantsFixes(t, filepath.Join("..", "testdata"), lockcheck.Analyzer, "./lockfix")
}
