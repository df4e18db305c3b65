package luacheckbench

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/slotlint/slotlint/luacheck"
)

const corpusSize = 400

func corpus(b *testing.B) ([]string, int64) {
	b.Helper()
	paths, total, err := Generate(b.TempDir(), corpusSize, 42)
	if err != nil {
		b.Fatal(err)
	}
	return paths, total
}

// BenchmarkCheck compares slotlint's checker and luacheck on the same
// generated files in the same run: both read every file from disk, one
// process (or goroutine) for all files, sequentially.
func BenchmarkCheck(b *testing.B) {
	paths, total := corpus(b)
	b.Run("slotlint", func(b *testing.B) {
		b.SetBytes(total)
		findings := 0
		for b.Loop() {
			findings = 0
			for _, p := range paths {
				src, err := os.ReadFile(p)
				if err != nil {
					b.Fatal(err)
				}
				findings += len(luacheck.Check(src, luacheck.Options{Filename: p}))
			}
		}
		b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		b.ReportMetric(float64(findings), "findings")
	})
	b.Run("luacheck", func(b *testing.B) {
		bin, err := exec.LookPath("luacheck")
		if err != nil {
			b.Skip("luacheck is not installed (Debian: apt-get install lua-check)")
		}
		args := append([]string{"--no-config", "--no-cache", "--formatter", "plain", "--std", "lua51",
			"--globals", "redis", "KEYS", "ARGV", "cjson", "cmsgpack", "struct", "bit", "--"}, paths...)
		b.SetBytes(total)
		for b.Loop() {
			err := exec.Command(bin, args...).Run()
			// luacheck exits 1 for warnings and 2 for errors; both are
			// results, not failures.
			var exit *exec.ExitError
			if err != nil && !(errors.As(err, &exit) && exit.ExitCode() <= 2) {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
}

// TestCorpus: the corpus is large enough, parses, and the checker finds
// the mistakes planted in it.
func TestCorpus(t *testing.T) {
	paths, _, err := Generate(t.TempDir(), corpusSize, 42)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 300 {
		t.Fatalf("%d scripts", len(paths))
	}
	seen := map[string]int{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range luacheck.Check(src, luacheck.Options{Filename: p}) {
			seen[f.Rule]++
		}
	}
	if seen[luacheck.RuleSyntax] != 0 {
		t.Errorf("%d scripts do not parse", seen[luacheck.RuleSyntax])
	}
	for _, rule := range []string{"LUA102", "LUA103", "LUA201", "LUA202", "LUA303"} {
		if seen[rule] == 0 {
			t.Errorf("no %s finding in the corpus", rule)
		}
	}
	t.Logf("findings by rule: %v", seen)
}
