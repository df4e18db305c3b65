package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
)

// Environment of a worker process of TestFaultMutexAcrossProcesses.
const (
	envWorker     = "SLOTLINT_MUTEX_WORKER"     // the worker's number
	envWorkerKeys = "SLOTLINT_MUTEX_KEYS"       // comma-separated lock keys
	envWorkerOut  = "SLOTLINT_MUTEX_OUT"        // file for the worker's sections
	envWorkerRun  = "SLOTLINT_MUTEX_RUN_MILLIS" // how long to run
	envWorkerMax  = "SLOTLINT_MUTEX_MAX_TABLE"  // MaxTable name for pipelined updates
)

// A worker runs for its given time and then on until it has held a lock
// this many times (or workerHardStop has passed): how many holds fit in the
// time depends on the TTLs drawn and the machine's load, and the check
// needs enough of them to mean something.
const (
	workerMinAcquired = 40
	workerHardStop    = 30 * time.Second
)

// heldSection is a stretch of work done while holding a lock, as a worker
// process logged it: wall-clock times, comparable across processes of one
// machine.
type heldSection struct {
	Key      string
	Start    int64 // after Obtain returned, Unix ns
	End      int64 // before Release (or the moment the holder stopped), Unix ns
	Deadline int64 // the entry's Deadline when the work ended, Unix ns
	Fence    int64
	Worker   int
	Overran  bool // the work ended after the deadline (a stalled goroutine)
}

// workerReport is a worker's last line: what it did besides the sections.
type workerReport struct {
	Acquired, Reentered, Expired, Errors int
	Updates                              map[string]int64 // highest value sent per MaxTable id
	Reloads                              int
	FirstError                           string
}

// TestFaultMutexAcrossProcesses runs four OS processes (this test binary
// re-executed as workers) that take four locks on the harness cluster for
// at least three seconds, and until each has held a lock 40 times, with
// mixed TTLs (20ms to 400ms), re-entries with a shorter or longer TTL after
// which the outer entry works on until close to its Deadline, and holders
// that stop without releasing (their lock expires under the others). Meanwhile every master gets SCRIPT FLUSH every 150ms,
// and each worker sends pipelined and batched MaxUpdates. Every section of
// work that ended by its entry's Deadline is checked against every other
// section of the same lock: none may overlap, and fencing tokens rise in
// the order the sections ran. The pipelined updates must all have landed.
func TestFaultMutexAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four processes for a few seconds")
	}
	rdb := redistest.Cluster(t)
	ctx := context.Background()
	id := tagged(t)
	const workers = 4
	keys := make([]string, 4)
	for i := range keys {
		keys[i] = Key("procs", id+strconv.Itoa(i), "lock")
	}
	table := MaxTable{Name: "procs" + strings.Trim(id, ":"), Shards: 8}
	dir := t.TempDir()

	stopFlush := make(chan struct{})
	flushed := make(chan int)
	go func() {
		n := 0
		tick := time.NewTicker(150 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopFlush:
				flushed <- n
				return
			case <-tick.C:
				rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
					return m.ScriptFlush(ctx).Err()
				})
				n++
			}
		}
	}()

	runCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmds := make([]*exec.Cmd, workers)
	for w := range workers {
		cmd := exec.CommandContext(runCtx, os.Args[0], "-test.run=^TestMutexWorkerProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(),
			envWorker+"="+strconv.Itoa(w),
			envWorkerKeys+"="+strings.Join(keys, ","),
			envWorkerOut+"="+filepath.Join(dir, fmt.Sprintf("worker-%d.jsonl", w)),
			envWorkerRun+"=3000",
			envWorkerMax+"="+table.Name,
		)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[w] = cmd
		t.Cleanup(func() {
			if t.Failed() && out.Len() > 0 {
				t.Logf("worker %d output:\n%s", w, out.String())
			}
		})
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("worker %d: %v", w, err)
		}
	}
	close(stopFlush)
	flushes := <-flushed
	if t.Failed() {
		return
	}

	var sections []heldSection
	var total workerReport
	highest := map[string]int64{}
	for w := range workers {
		secs, rep := readWorker(t, filepath.Join(dir, fmt.Sprintf("worker-%d.jsonl", w)))
		sections = append(sections, secs...)
		total.Acquired += rep.Acquired
		total.Reentered += rep.Reentered
		total.Expired += rep.Expired
		total.Errors += rep.Errors
		total.Reloads += rep.Reloads
		if rep.FirstError != "" {
			t.Errorf("worker %d: %d errors, first: %s", w, rep.Errors, rep.FirstError)
		}
		for id, v := range rep.Updates {
			highest[id] = max(highest[id], v)
		}
	}
	if total.Acquired < workers*workerMinAcquired || total.Reentered == 0 || total.Expired == 0 {
		t.Fatalf("too little exercised: %+v", total)
	}
	if flushes == 0 || total.Reloads == 0 {
		t.Fatalf("%d SCRIPT FLUSHes, %d reloads: the flushes were not exercised", flushes, total.Reloads)
	}
	overran := 0
	byKey := map[string][]heldSection{}
	for _, s := range sections {
		if s.Overran {
			overran++
			continue
		}
		byKey[s.Key] = append(byKey[s.Key], s)
	}
	for key, secs := range byKey {
		sort.Slice(secs, func(i, j int) bool { return secs[i].Start < secs[j].Start })
		for i := 1; i < len(secs); i++ {
			a, b := secs[i-1], secs[i]
			if b.Start < a.End {
				t.Errorf("%s: worker %d (fence %d) started %v before worker %d (fence %d) ended its work within its lease",
					key, b.Worker, b.Fence, time.Duration(a.End-b.Start), a.Worker, a.Fence)
			}
			if b.Fence <= a.Fence {
				t.Errorf("%s: fence %d after %d", key, b.Fence, a.Fence)
			}
		}
	}
	for id, want := range highest {
		key := must1(table.ValueKey(id))
		if got, err := rdb.Get(ctx, key).Int64(); err != nil || got != want {
			t.Errorf("%s = %d (%v), want the highest update %d", key, got, err, want)
		}
	}
	t.Logf("%d sections (%d overran their lease, not checked), %d re-entries, %d expired holders, %d SCRIPT FLUSHes, %d reloads",
		len(sections), overran, total.Reentered, total.Expired, flushes, total.Reloads)
}

func readWorker(t *testing.T, path string) ([]heldSection, workerReport) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var secs []heldSection
	var rep workerReport
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		if strings.HasPrefix(string(line), `{"Acquired"`) {
			if err := json.Unmarshal(line, &rep); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var s heldSection
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatal(err)
		}
		secs = append(secs, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return secs, rep
}

// TestMutexWorkerProcess is a worker of TestFaultMutexAcrossProcesses; run
// on its own it does nothing.
func TestMutexWorkerProcess(t *testing.T) {
	w, err := strconv.Atoi(os.Getenv(envWorker))
	if err != nil {
		t.Skip("a worker process of TestFaultMutexAcrossProcesses")
	}
	keys := strings.Split(os.Getenv(envWorkerKeys), ",")
	runFor, _ := strconv.Atoi(os.Getenv(envWorkerRun))
	out, err := os.Create(os.Getenv(envWorkerOut))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	rdb := redistest.Cluster(t)
	hooks := &recordingHooks{}
	c := New(rdb, &Options{Hooks: hooks})
	ctx := context.Background()
	end := time.Now().Add(time.Duration(runFor) * time.Millisecond)
	hardEnd := time.Now().Add(workerHardStop)

	var mu sync.Mutex
	enc := json.NewEncoder(out)
	rep := workerReport{Updates: map[string]int64{}}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		rep.Errors++
		if rep.FirstError == "" {
			rep.FirstError = err.Error()
		}
	}
	running := func() bool {
		now := time.Now()
		if now.Before(end) {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		return rep.Acquired < workerMinAcquired && now.Before(hardEnd)
	}
	record := func(s heldSection) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(s)
	}
	ttls := []time.Duration{20 * time.Millisecond, 60 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond}

	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), uint64(g)))
			for running() {
				key := keys[r.IntN(len(keys))]
				octx, cancel := context.WithTimeout(ctx, 2*time.Second)
				l, err := c.Obtain(octx, key, ttls[r.IntN(len(ttls))], nil)
				cancel()
				if err != nil {
					if !errors.Is(err, ErrNotObtained) {
						fail(err)
					}
					continue
				}
				start := time.Now()
				mu.Lock()
				rep.Acquired++
				mu.Unlock()
				s := heldSection{Key: key, Start: start.UnixNano(), Fence: l.Fence(), Worker: w}
				switch n := r.IntN(10); {
				case n < 3:
					// Re-enter with another TTL, leave the inner entry, and
					// work on until close to the outer entry's deadline.
					in, err := c.Obtain(ctx, key, ttls[r.IntN(len(ttls))], &ObtainOptions{Token: l.Token(), NoWait: true})
					if err != nil {
						if !errors.Is(err, ErrNotObtained) {
							fail(err)
						}
					} else {
						mu.Lock()
						rep.Reentered++
						mu.Unlock()
						in.Release(ctx)
					}
					time.Sleep(time.Until(l.Deadline()) - 3*time.Millisecond)
				case n < 4:
					// Stop without releasing: the lock expires under the
					// others; this holder does no more work under it.
					s.End, s.Deadline = time.Now().UnixNano(), l.Deadline().UnixNano()
					s.Overran = s.End > s.Deadline
					record(s)
					mu.Lock()
					rep.Expired++
					mu.Unlock()
					continue
				default:
					time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond)
				}
				s.End, s.Deadline = time.Now().UnixNano(), l.Deadline().UnixNano()
				s.Overran = s.End > s.Deadline
				record(s)
				// A release that returns before the deadline ran while Redis
				// still held the lock: it must find it. One that returns
				// later may find it expired.
				err = l.Release(ctx)
				if err != nil && (!errors.Is(err, ErrLockLost) || time.Now().Before(l.Deadline())) {
					fail(err)
				}
			}
		})
	}
	// Pipelined and batched updates under the SCRIPT FLUSHes.
	table := MaxTable{Name: os.Getenv(envWorkerMax), Shards: 8}
	wg.Go(func() {
		r := rand.New(rand.NewPCG(uint64(w), 99))
		for running() {
			var ups []DirtyValue
			for range 20 {
				ups = append(ups, DirtyValue{ID: "id" + strconv.Itoa(r.IntN(50)), Value: r.Int64N(1 << 40)})
			}
			var err error
			if r.IntN(2) == 0 {
				_, err = c.UpdateMany(ctx, table, ups)
			} else {
				_, err = c.Update(ctx, table, ups[0].ID, ups[0].Value)
				ups = ups[:1]
			}
			if err != nil {
				fail(err)
				continue
			}
			mu.Lock()
			for _, u := range ups {
				rep.Updates[u.ID] = max(rep.Updates[u.ID], u.Value)
			}
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
		}
	})
	wg.Wait()
	hooks.mu.Lock()
	for _, n := range hooks.reloads {
		rep.Reloads += n
	}
	hooks.mu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
}
