package txslot_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// TestHelpers checks the summaries recorded for functions that queue
// commands on a pipeliner they receive, and their use by transactions of
// an importing package.
func TestHelpers(t *testing.T) {
	dir := filepath.Join("..", "testdata")
	analysistest.Run(t, dir, redisapi.Analyzer, "./txhelper/queue")
	analysistest.Run(t, dir, txslot.Analyzer, "./txhelper/use")
}
