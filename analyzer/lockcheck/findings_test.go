package lockcheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/lockcheck"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// TestFindingsOnRealCode runs the analyzer over the runtime package (its
// code and its examples of Obtain, Release, LockAndSet and MaxUpdate) and
// over this package's race tests. The runtime must raise nothing; in the
// race tests, exactly the steps that race (marked "reported: ID") are
// reported, and the replacements shown next to them are not.
func TestFindingsOnRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the runtime package and go-redis")
	}
	prog := suitetest.Load(t, suitetest.Config{
		Dir:      filepath.Join("..", ".."),
		Patterns: []string{"./runtime", "./analyzer/lockcheck"},
		Tests:    true,
	})
	res := suitetest.Run(t, prog, lockcheck.Analyzer)
	raceFile, err := filepath.Abs("race_test.go")
	if err != nil {
		t.Fatal(err)
	}
	want := markers(t, raceFile)
	got := map[int]string{}
	for _, f := range res.Findings {
		if f.Analyzer != lockcheck.Analyzer {
			continue
		}
		if f.Posn.Filename == raceFile {
			got[f.Posn.Line] = f.Category
			continue
		}
		t.Errorf("%s: unexpected %s: %s", f.Posn, f.Category, f.Message)
	}
	for line, id := range want {
		if got[line] != id {
			t.Errorf("race_test.go:%d: want %s, got %q", line, id, got[line])
		}
	}
	for line, id := range got {
		if want[line] == "" {
			t.Errorf("race_test.go:%d: unexpected %s", line, id)
		}
	}
	if len(want) == 0 {
		t.Fatal("no marked lines in race_test.go")
	}
}

// markers reads the "// reported: ID" comments of a file by line.
func markers(t *testing.T, name string) map[int]string {
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if _, id, ok := strings.Cut(line, "// reported: "); ok {
			out[i+1] = strings.Fields(id)[0]
		}
	}
	return out
}
