package txslot_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/txslot"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestTxslot(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), txslot.Analyzer, "./txslot")
}
