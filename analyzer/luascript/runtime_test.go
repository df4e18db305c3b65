package luascript

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRuntimeScriptsClean: the runtime package's vetted scripts, checked as
// this analyzer checks an embedded script, with the prelude each includes
// joined in as the runtime joins it before sending, produce no finding.
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
		opts := s.options()
		opts.Filename, opts.Includes = f, true
		r := cache.Analyze(s.src, opts)
		if !r.Checked {
			t.Errorf("%s was not checked", f)
		}
		for _, finding := range r.Findings {
			t.Errorf("%s", finding)
		}
	}
}
