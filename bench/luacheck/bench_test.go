package luacheckbench

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/yuin/gopher-lua/parse"

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

// BenchmarkCheck compares slotlint and luacheck on the same generated
// files in the same run. "cli" runs are one process over all files, as a
// user or CI runs them: the slotlint binary ("slotlint lua FILES...") and
// luacheck ("luacheck FILES..."); "lib-sequential" is the checker called
// in-process on one goroutine, reading each file from disk.
func BenchmarkCheck(b *testing.B) {
	paths, total := corpus(b)
	b.Run("slotlint-cli", func(b *testing.B) {
		bin := buildSlotlint(b)
		args := append([]string{"lua"}, paths...)
		b.SetBytes(total)
		for b.Loop() {
			runTool(b, bin, args)
		}
		b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("slotlint-lib-sequential", func(b *testing.B) {
		b.SetBytes(total)
		findings := 0
		for b.Loop() {
			findings = 0
			for _, r := range luacheck.CheckFiles(paths, 1, func(string, []byte) luacheck.Options { return luacheck.Options{} }) {
				if r.Err != nil {
					b.Fatal(r.Err)
				}
				findings += len(r.Findings)
			}
		}
		b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		b.ReportMetric(float64(findings), "findings")
	})
	b.Run("luacheck-cli", func(b *testing.B) {
		bin, err := exec.LookPath("luacheck")
		if err != nil {
			b.Skip("luacheck is not installed (Debian: apt-get install lua-check)")
		}
		args := append([]string{"--no-config", "--no-cache", "--formatter", "plain", "--std", "lua51",
			"--globals", "redis", "KEYS", "ARGV", "cjson", "cmsgpack", "struct", "bit", "--"}, paths...)
		b.SetBytes(total)
		for b.Loop() {
			runTool(b, bin, args)
		}
		b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
}

// BenchmarkCheckInterleaved runs the two command lines alternately in
// every iteration and reports each one's files/s and their ratio, so both
// see the same machine load.
func BenchmarkCheckInterleaved(b *testing.B) {
	paths, total := corpus(b)
	lc, err := exec.LookPath("luacheck")
	if err != nil {
		b.Skip("luacheck is not installed (Debian: apt-get install lua-check)")
	}
	bin := buildSlotlint(b)
	slotArgs := append([]string{"lua"}, paths...)
	lcArgs := append(append([]string{}, luacheckArgs...), paths...)
	b.SetBytes(2 * total)
	t := interleave(b, bin, slotArgs, lc, lcArgs)
	files := float64(len(paths) * b.N)
	b.ReportMetric(files/t.slot.Seconds(), "slotlint-files/s")
	b.ReportMetric(files/t.other.Seconds(), "luacheck-files/s")
	b.ReportMetric(float64(total)*float64(b.N)/t.slot.Seconds()/1e6, "slotlint-MB/s")
	b.ReportMetric(float64(total)*float64(b.N)/t.other.Seconds()/1e6, "luacheck-MB/s")
	b.ReportMetric(t.other.Seconds()/t.slot.Seconds(), "speedup")
	// CPU time (user + system) per file: less sensitive to other load on
	// the machine than wall time, and blind to slotlint's use of several
	// cores.
	b.ReportMetric(t.slotCPU.Seconds()*1e6/files, "slotlint-cpu-µs/file")
	b.ReportMetric(t.otherCPU.Seconds()*1e6/files, "luacheck-cpu-µs/file")
	b.ReportMetric(t.otherCPU.Seconds()/t.slotCPU.Seconds(), "cpu-speedup")
}

// runTool runs a checker; exit status 1 (findings) and, for luacheck, 2
// (errors in files) are results, not failures.
func runTool(b *testing.B, bin string, args []string) *os.ProcessState {
	cmd := exec.Command(bin, args...)
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code := exit.ExitCode()
		if code == 1 || code == 2 && filepath.Base(bin) == "luacheck" {
			return cmd.ProcessState
		}
	}
	if err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	return cmd.ProcessState
}

// buildSlotlint builds the command from the main module.
func buildSlotlint(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "slotlint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/slotlint")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
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

// BenchmarkParseOnly is gopher-lua's parser alone over the same files,
// already in memory: the floor under slotlint's numbers, since slotlint
// parses every script with it.
func BenchmarkParseOnly(b *testing.B) {
	paths, total := corpus(b)
	srcs := readFiles(b, paths)
	b.SetBytes(total)
	for b.Loop() {
		for _, src := range srcs {
			if _, err := parse.Parse(bytes.NewReader(src), "x"); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// readFiles reads every file of paths into memory, for the in-process
// benchmarks that must not time the reads.
func readFiles(b *testing.B, paths []string) [][]byte {
	srcs := make([][]byte, len(paths))
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = src
	}
	return srcs
}
