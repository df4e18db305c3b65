package scriptkeys_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/internal/suitetest"
)

func TestScriptkeys(t *testing.T) {
	suitetest.Wants(t, filepath.Join("..", "testdata"), scriptkeys.Analyzer, "./scriptkeys")
}
