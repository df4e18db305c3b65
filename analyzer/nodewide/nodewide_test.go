package nodewide_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/nodewide"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestNodewide(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), nodewide.Analyzer, "./nodewide")
}
