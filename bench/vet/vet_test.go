// Package vet compares the wall time of `go vet -vettool=slotlint` with plain
// `go vet` over the packages of real modules that use go-redis, with the same
// warm build cache, in one run.
//
//	cd bench && go test -run '^$' -bench BenchmarkVet -benchtime 5x -timeout 60m ./vet/
//
// Each module is copied out of the module cache and vetted as its own main
// module (./..., tests included), as its developers would run go vet.
package vet

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	// The modules under test; importing them pins them in this module.
	_ "github.com/hibiken/asynq"
	_ "github.com/redis/go-redis/v9"
)

// targets are real modules pinned by this module's go.mod. Each is vetted
// as its own main module (./... with its tests), from a copy of its source.
var targets = []struct{ name, module string }{
	{"go-redis", "github.com/redis/go-redis/v9"},
	{"asynq", "github.com/hibiken/asynq"},
}

var copies sync.Map // module → *moduleCopy

type moduleCopy struct {
	once sync.Once
	dir  string
	err  error
}

// moduleDir returns a writable copy of the pinned module's source.
func moduleDir(tb testing.TB, module string) string {
	v, _ := copies.LoadOrStore(module, &moduleCopy{})
	mc := v.(*moduleCopy)
	mc.once.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
		if err != nil {
			mc.err = fmt.Errorf("go list -m %s: %v", module, err)
			return
		}
		src := strings.TrimSpace(string(out))
		dst, err := sharedTempDir("slotlint-bench-mod")
		if err != nil {
			mc.err = err
			return
		}
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			mc.err = err
			return
		}
		// The module cache is read-only; go may need to write go.sum.
		mc.err = filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			mode := fs.FileMode(0o644)
			if d.IsDir() {
				mode = 0o755
			}
			return os.Chmod(p, mode)
		})
		mc.dir = dst
	})
	if mc.err != nil {
		tb.Fatal(mc.err)
	}
	return mc.dir
}

// sharedDirs are the temporary directories that outlive one benchmark
// (module copies, the binary); TestMain removes them.
var (
	sharedMu   sync.Mutex
	sharedDirs []string
)

func sharedTempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		sharedMu.Lock()
		sharedDirs = append(sharedDirs, dir)
		sharedMu.Unlock()
	}
	return dir, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range sharedDirs {
		// Module copies were made writable when copied, so this can
		// remove them.
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// slotlintBinary builds the slotlint command from this checkout once.
func slotlintBinary(tb testing.TB) string {
	buildOnce.Do(func() {
		dir, err := sharedTempDir("slotlint-bench")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "slotlint")
		// Built in the main module (two levels up), from this checkout.
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/slotlint")
		cmd.Dir = filepath.Join("..", "..")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = err
			binPath = string(out)
		}
	})
	if buildErr != nil {
		tb.Fatalf("building slotlint: %v\n%s", buildErr, binPath)
	}
	return binPath
}

// vet runs go vet with extra flags over pattern. go vet exits non-zero when it
// reports findings; only a failure to run at all is an error here.
func vet(tb testing.TB, dir, gocache string, flags ...string) (stderr []byte) {
	stderr, _ = vetCPU(tb, dir, gocache, flags...)
	return stderr
}

// vetCPU is vet that also returns the CPU time (user and system) of go vet
// and of every process it ran and waited for: the vet tool's runs and
// compilations. Unlike wall time, it does not grow with load from other
// work on the machine.
func vetCPU(tb testing.TB, dir, gocache string, flags ...string) (stderr []byte, cpu time.Duration) {
	args := append([]string{"vet"}, flags...)
	args = append(args, "./...")
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOCACHE="+gocache)
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		tb.Fatalf("go %v: %v", args, err)
	}
	return errBuf.Bytes(), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// BenchmarkVet times both tools over each module. Every iteration runs both,
// alternating which goes first, so load from elsewhere on the machine falls
// on both alike; it reports seconds per run of each and their ratio.
func BenchmarkVet(b *testing.B) {
	bin := slotlintBinary(b)
	for _, t := range targets {
		dir := moduleDir(b, t.module)
		warm := warmCache(b, dir)
		b.Run(t.name, func(b *testing.B) {
			var govet, slotlint, govetCPU, slotlintCPU time.Duration
			timed := func(wall, cpu *time.Duration, flags ...string) {
				c := cacheCopy(b, warm)
				defer os.RemoveAll(filepath.Dir(c))
				start := time.Now()
				_, used := vetCPU(b, dir, c, flags...)
				*wall += time.Since(start)
				*cpu += used
			}
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					timed(&govet, &govetCPU)
					timed(&slotlint, &slotlintCPU, "-vettool="+bin)
				} else {
					timed(&slotlint, &slotlintCPU, "-vettool="+bin)
					timed(&govet, &govetCPU)
				}
				i++
			}
			b.ReportMetric(govet.Seconds()/float64(i), "go-vet-s/op")
			b.ReportMetric(slotlint.Seconds()/float64(i), "slotlint-s/op")
			b.ReportMetric(slotlint.Seconds()/govet.Seconds(), "slotlint/go-vet")
			b.ReportMetric(govetCPU.Seconds()/float64(i), "go-vet-cpu-s/op")
			b.ReportMetric(slotlintCPU.Seconds()/float64(i), "slotlint-cpu-s/op")
			b.ReportMetric(slotlintCPU.Seconds()/govetCPU.Seconds(), "cpu-slotlint/go-vet")
		})
	}
}

// warmCache returns a build cache holding the compiled packages of dir and
// their tests, but no vet results: go vet caches its results, so every timed
// run starts from a copy of this cache, with compilation warm and vetting
// cold for both tools alike.
func warmCache(tb testing.TB, dir string) string {
	cache := filepath.Join(tb.TempDir(), "warm")
	cmd := exec.Command("go", "test", "-vet=off", "-count=1", "-exec=/bin/true", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOCACHE="+cache)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("warming the build cache: %v\n%s", err, out)
	}
	return cache
}

// cacheCopy copies the warm cache for one run; the caller removes it.
func cacheCopy(tb testing.TB, warm string) string {
	dst, err := os.MkdirTemp("", "slotlint-bench-cache")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dst, "c"), os.DirFS(warm)); err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dst, "c")
}

// TestFindingsOnRealModules prints what slotlint reports on the target
// modules, for review; it fails only when slotlint cannot run.
func TestFindingsOnRealModules(t *testing.T) {
	if testing.Short() {
		t.Skip("vets whole modules")
	}
	bin := slotlintBinary(t)
	for _, tg := range targets {
		dir := moduleDir(t, tg.module)
		out := vet(t, dir, t.TempDir(), "-vettool="+bin)
		t.Logf("slotlint on %s:\n%s", tg.name, out)
	}
}
