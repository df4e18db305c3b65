package hashtag_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer/hashtag"
)

func TestHashtag(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "testdata"), hashtag.Analyzer, "./hashtag")
}
