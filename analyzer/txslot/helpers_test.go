package txslot_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/txslot"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// TestHelpers checks the summaries recorded for functions that queue
// commands on a pipeliner they receive, and their use by transactions of
// an importing package.
func TestHelpers(t *testing.T) {
	dir := filepath.Join("..", "testdata")
	suitetest.Wants(t, dir, redisapi.Analyzer, "./txhelper/queue")
	suitetest.Wants(t, dir, txslot.Analyzer, "./txhelper/use")
}
