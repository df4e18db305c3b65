package luascript

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRuntimeScriptsClean: the runtime package's vetted scripts, checked as
// this analyzer checks an embedded script, produce no finding.
func TestRuntimeScriptsClean(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "runtime", "lua", "*.lua"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no runtime scripts found: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := &script{src: src, embedded: filepath.ToSlash(filepath.Join("lua", filepath.Base(f)))}
		r := cache.Analyze(s.src, s.options())
		if !r.Checked {
			t.Errorf("%s was not checked", f)
		}
		for _, finding := range r.Findings {
			t.Errorf("%s", finding)
		}
	}
}
