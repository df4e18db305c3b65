package vet

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkKeys compares `slotlint keys ./...` with `slotlint ./...` on
// go-redis v9.23.0's module with its tests: the key map runs the key map
// analyzer beside the rules of joint uses, and must take the time of the
// analyzer mode, within 20%.
//
//	cd bench && go test -run '^$' -bench BenchmarkKeys -benchtime 4x -timeout 60m ./vet/
//
// Both load the packages from source (go list's package data is all they
// take from the build cache, and neither caches results), and every
// iteration runs both, alternating which goes first. It reports the CPU time (user and
// system) of each process per run and its ratio, which load from
// elsewhere does not inflate, and the wall times.
func BenchmarkKeys(b *testing.B) {
	bin := slotlintBinary(b)
	dir := moduleDir(b, "github.com/redis/go-redis/v9")
	run := func(args ...string) (time.Duration, time.Duration) {
		cmd := exec.Command(bin, append(args, "./...")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start)
		// slotlint ./... exits 3 with findings; only a failure to run, or
		// status 1 (packages that did not load), spoils the comparison.
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 3) {
			b.Fatalf("slotlint %v: %v", args, err)
		}
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	// One untimed run of each fills the page cache and go list's cache.
	run()
	run("keys")
	var lint, keys, lintCPU, keysCPU time.Duration
	timed := func(wall, cpu *time.Duration, args ...string) {
		w, c := run(args...)
		*wall += w
		*cpu += c
	}
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			timed(&lint, &lintCPU)
			timed(&keys, &keysCPU, "keys")
		} else {
			timed(&keys, &keysCPU, "keys")
			timed(&lint, &lintCPU)
		}
		i++
	}
	b.ReportMetric(lint.Seconds()/float64(i), "lint-s/op")
	b.ReportMetric(keys.Seconds()/float64(i), "keys-s/op")
	b.ReportMetric(lintCPU.Seconds()/float64(i), "lint-cpu-s/op")
	b.ReportMetric(keysCPU.Seconds()/float64(i), "keys-cpu-s/op")
	b.ReportMetric(keysCPU.Seconds()/lintCPU.Seconds(), "cpu-keys/lint")
}
