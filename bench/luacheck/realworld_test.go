package luacheckbench

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/slotlint/slotlint/luacheck"
)

// The real-world set is public scripts kept outside every repository
// (their licences are their authors'); SLOTLINT_LUA_CORPUS names the
// directory to walk for *.lua files. Without it these benchmarks skip.
const corpusEnv = "SLOTLINT_LUA_CORPUS"

func realWorld(b *testing.B) ([]string, int64) {
	b.Helper()
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		b.Skip(corpusEnv + " is not set: no real-world scripts to check")
	}
	var paths []string
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lua") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		paths = append(paths, p)
		total += info.Size()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(paths)
	return paths, total
}

var luacheckArgs = []string{"--no-config", "--no-cache", "--formatter", "plain", "--std", "lua51",
	"--globals", "redis", "KEYS", "ARGV", "cjson", "cmsgpack", "struct", "bit", "--"}

// BenchmarkRealWorldInterleaved runs slotlint and Debian's luacheck as
// whole processes over the real-world set, alternately in every
// iteration, and reports files/s, CPU time per file and page faults per
// run for each. The "one-file" pair runs each tool on the smallest script,
// which is almost all start-up.
func BenchmarkRealWorldInterleaved(b *testing.B) {
	paths, total := realWorld(b)
	lc, err := exec.LookPath("luacheck")
	if err != nil {
		b.Skip("luacheck is not installed (Debian: apt-get install lua-check)")
	}
	bin := buildSlotlint(b)
	for _, set := range []struct {
		name  string
		paths []string
	}{{"all", paths}, {"one-file", smallest(b, paths)}} {
		b.Run(set.name, func(b *testing.B) {
			slotArgs := append([]string{"lua"}, set.paths...)
			lcArgs := append(append([]string{}, luacheckArgs...), set.paths...)
			t := interleave(b, bin, slotArgs, lc, lcArgs)
			runs := float64(b.N)
			files := float64(len(set.paths)) * runs
			b.ReportMetric(files/t.slot.Seconds(), "slotlint-files/s")
			b.ReportMetric(files/t.other.Seconds(), "luacheck-files/s")
			b.ReportMetric(t.other.Seconds()/t.slot.Seconds(), "speedup")
			b.ReportMetric(t.slotCPU.Seconds()*1e3/runs, "slotlint-cpu-ms/run")
			b.ReportMetric(t.otherCPU.Seconds()*1e3/runs, "luacheck-cpu-ms/run")
			b.ReportMetric(t.otherCPU.Seconds()/t.slotCPU.Seconds(), "cpu-speedup")
			b.ReportMetric(float64(t.slotFaults)/runs, "slotlint-minflt/run")
			b.ReportMetric(float64(t.otherFaults)/runs, "luacheck-minflt/run")
		})
	}
	b.Logf("%d files, %d bytes", len(paths), total)
}

// BenchmarkRealWorldFiles checks each real-world file in-process and logs
// the ten that take the most CPU time, with their share of the whole:
// where the checking time of real files goes. Linux only (RUSAGE_THREAD).
func BenchmarkRealWorldFiles(b *testing.B) {
	paths, total := realWorld(b)
	srcs := readFiles(b, paths)
	per := make([]time.Duration, len(paths))
	b.SetBytes(total)
	// The machine is shared: wall time per file measures the other jobs'
	// load as much as the checker, so each file is timed by the CPU time
	// of this thread alone.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for b.Loop() {
		for i, src := range srcs {
			start := threadCPU(b)
			luacheck.Check(src, luacheck.Options{Filename: paths[i]})
			per[i] += threadCPU(b) - start
		}
	}
	var sum time.Duration
	order := make([]int, len(paths))
	for i := range order {
		order[i] = i
		sum += per[i]
	}
	sort.Slice(order, func(x, y int) bool { return per[order[x]] > per[order[y]] })
	for _, i := range order[:min(10, len(order))] {
		b.Logf("%6.2f ms CPU  %4.1f%%  %6d bytes  %s", per[i].Seconds()*1e3/float64(b.N),
			100*per[i].Seconds()/sum.Seconds(), len(srcs[i]), paths[i])
	}
	b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(sum.Seconds()*1e6/float64(b.N)/float64(len(paths)), "cpu-µs/file")
}

// threadCPU is the CPU time (user + system) the calling OS thread has used.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

func smallest(b *testing.B, paths []string) []string {
	b.Helper()
	best, size := "", int64(-1)
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		if size < 0 || info.Size() < size {
			best, size = p, info.Size()
		}
	}
	return []string{best}
}

// toolTimes adds up the wall time, CPU time and minor page faults of
// slotlint's and luacheck's runs.
type toolTimes struct {
	slot, other, slotCPU, otherCPU time.Duration
	slotFaults, otherFaults        int64
}

// interleave runs the two command lines alternately in every iteration of
// b, so both see the same machine load.
func interleave(b *testing.B, bin string, slotArgs []string, lc string, lcArgs []string) toolTimes {
	var t toolTimes
	for b.Loop() {
		start := time.Now()
		ps := runTool(b, bin, slotArgs)
		mid := time.Now()
		po := runTool(b, lc, lcArgs)
		t.slot += mid.Sub(start)
		t.other += time.Since(mid)
		t.slotCPU += ps.UserTime() + ps.SystemTime()
		t.otherCPU += po.UserTime() + po.SystemTime()
		t.slotFaults += minorFaults(ps)
		t.otherFaults += minorFaults(po)
	}
	return t
}

func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Minflt
	}
	return 0
}

// BenchmarkRealWorldCheckFiles checks the real-world set in process as
// slotlint lua does with its default flags (includes resolved, libraries
// told by their shebang), on one worker: the checker's own CPU time and
// allocations per run, without start-up, for profiles
// (-cpuprofile, -memprofile).
func BenchmarkRealWorldCheckFiles(b *testing.B) {
	paths, total := realWorld(b)
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	b.SetBytes(total)
	b.ReportAllocs()
	findings := 0
	for b.Loop() {
		findings = 0
		for _, r := range luacheck.CheckFiles(paths, 1, cliOptions) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
			findings += len(r.Findings)
		}
	}
	b.ReportMetric(float64(findings), "findings")
}

// cliOptions are the options slotlint lua gives a file without flags.
func cliOptions(_ string, src []byte) luacheck.Options {
	return luacheck.Options{NumKeys: -1, Function: luacheck.IsLibrary(src), Includes: true}
}
