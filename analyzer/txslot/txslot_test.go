package txslot_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/txslot"
)

func TestTxslot(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "testdata"), txslot.Analyzer, "./txslot")
}
