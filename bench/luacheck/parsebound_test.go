package luacheckbench

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRealWorldParseBound measures what the parser slotlint must use
// sets as a bound on its speed against luacheck: in every iteration, one
// after another over the real-world set, luacheck and slotlint as whole
// processes, then gopher-lua's parser alone reading and parsing every file
// in this process (no start-up, a heap already grown), then two Go
// programs as whole processes, one that only reads the files and one that
// reads and parses them (cmd/readfiles, cmd/parsefiles). A checker on this
// parser takes at least the parser's time: luacheck's time over it is the
// most that checker can reach against luacheck ("bound" metrics).
func BenchmarkRealWorldParseBound(b *testing.B) {
	paths, total := realWorld(b)
	lc, err := exec.LookPath("luacheck")
	if err != nil {
		b.Skip("luacheck is not installed (Debian: apt-get install lua-check)")
	}
	slotlint := buildSlotlint(b)
	readBin, parseBin := buildBench(b, "readfiles"), buildBench(b, "parsefiles")
	lcArgs := append(append([]string{}, luacheckArgs...), paths...)
	slotArgs := append([]string{"lua"}, paths...)
	// As in slotlint lua and cmd/parsefiles.
	defer debug.SetGCPercent(debug.SetGCPercent(400))

	var lcT, slotT, readT, parseT, inT procTimes
	var allocs, allocBytes uint64
	failed := 0
	for b.Loop() {
		lcT.run(b, lc, lcArgs)
		slotT.run(b, slotlint, slotArgs)

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cpu0 := selfCPU(b)
		start := time.Now()
		n, bad, err := ReadAndParse(paths, 0)
		inT.wall += time.Since(start)
		inT.cpu += selfCPU(b) - cpu0
		runtime.ReadMemStats(&after)
		if err != nil {
			b.Fatal(err)
		}
		if n != total {
			b.Fatalf("read %d bytes of %d", n, total)
		}
		failed = bad
		allocs += after.Mallocs - before.Mallocs
		allocBytes += after.TotalAlloc - before.TotalAlloc

		readT.run(b, readBin, paths)
		parseT.run(b, parseBin, paths)
	}
	runs := float64(b.N)
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 / runs }
	for _, m := range []struct {
		name string
		t    procTimes
	}{{"luacheck", lcT}, {"slotlint", slotT}, {"parse-inproc", inT}, {"parseproc", parseT}, {"readproc", readT}} {
		b.ReportMetric(ms(m.t.wall), m.name+"-ms/run")
		b.ReportMetric(ms(m.t.cpu), m.name+"-cpu-ms/run")
		if m.t.faults > 0 {
			b.ReportMetric(float64(m.t.faults)/runs, m.name+"-minflt/run")
		}
	}
	b.ReportMetric(float64(allocs)/runs, "parse-inproc-allocs/run")
	b.ReportMetric(float64(allocBytes)/runs/1e6, "parse-inproc-MB/run")
	b.ReportMetric(lcT.wall.Seconds()/slotT.wall.Seconds(), "speedup")
	b.ReportMetric(lcT.cpu.Seconds()/slotT.cpu.Seconds(), "cpu-speedup")
	b.ReportMetric(lcT.wall.Seconds()/inT.wall.Seconds(), "bound-inproc")
	b.ReportMetric(lcT.cpu.Seconds()/inT.cpu.Seconds(), "bound-inproc-cpu")
	b.ReportMetric(lcT.wall.Seconds()/parseT.wall.Seconds(), "bound-proc")
	b.ReportMetric(lcT.cpu.Seconds()/parseT.cpu.Seconds(), "bound-proc-cpu")
	b.Logf("%d files, %d bytes, %d not parsed by gopher-lua", len(paths), total, failed)
}

// procTimes adds up the wall time, CPU time (user + system) and minor page
// faults of one kind of run.
type procTimes struct {
	wall, cpu time.Duration
	faults    int64
}

// run runs a command line as a whole process and adds up its times.
func (t *procTimes) run(b *testing.B, bin string, args []string) {
	start := time.Now()
	ps := runTool(b, bin, args)
	t.wall += time.Since(start)
	t.cpu += ps.UserTime() + ps.SystemTime()
	t.faults += minorFaults(ps)
}

// selfCPU is the CPU time (user + system) this process has used, all its
// threads (the parser's workers and the collector's) included.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// buildBench builds one of this module's programs in cmd/.
func buildBench(b *testing.B, name string) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
