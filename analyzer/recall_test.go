package analyzer_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// TestKeysInFields checks keys held in struct fields, returned in structs,
// built by methods of one value and filled into templates: the facts of
// the package that builds them, and the findings where they are used.
func TestKeysInFields(t *testing.T) {
	dir := filepath.Join("testdata")
	suitetest.Wants(t, dir, keyexpr.Analyzer, "./recall/keys")
	suitetest.Wants(t, dir, crossslot.Analyzer, "./recall/use")
}
