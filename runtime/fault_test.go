package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// deadlineSlack is how long after its context's deadline a call may return
// in these tests: far above the few milliseconds measured (BENCHMARKS.md),
// so a loaded machine does not fail them, and far below the stalls they
// catch (hundreds of milliseconds to tens of seconds).
const deadlineSlack = 250 * time.Millisecond

// tagOn returns a hash tag whose slot the master m of cl serves.
func tagOn(t *testing.T, cl *redistest.PrivateCluster, m int) string {
	t.Helper()
	for i := range 10000 {
		tag := fmt.Sprintf("f%d", i)
		if cl.MasterOf(slot.Slot("{"+tag+"}")) == cl.Masters[m] {
			return tag
		}
	}
	t.Fatalf("no tag on master %d", m)
	return ""
}

// faultCall is one timed call of the load in TestFaultPausedThenKilledMaster.
type faultCall struct {
	healthy bool
	phase   string
	latency time.Duration
	err     error
}

// TestFaultPausedThenKilledMaster runs MaxUpdate and Obtain/Release calls
// with a 300ms deadline on the three masters of a private cluster while one
// master is paused (SIGSTOP) and then killed. Calls on the healthy masters'
// slots must keep succeeding with low latency, and no call may return much
// later than its deadline. With one batcher per Client, calls on every slot
// queued behind the pipeline stuck on the paused master and returned seconds
// after their deadlines.
func TestFaultPausedThenKilledMaster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a private cluster and runs for seconds")
	}
	cl := redistest.StartCluster(t, "--cluster-require-full-coverage", "no")
	rdb := cl.Client(t, nil) // go-redis defaults: a 3s read timeout, 3 retries
	c := New(rdb, nil)
	ctx := context.Background()
	if err := c.Preload(ctx); err != nil {
		t.Fatal(err)
	}
	tags := []string{tagOn(t, cl, 0), tagOn(t, cl, 1), tagOn(t, cl, 2)}
	const timeout = 300 * time.Millisecond

	var (
		mu    sync.Mutex
		calls []faultCall
		phase atomic.Value
		stop  atomic.Bool
	)
	phase.Store("healthy")
	record := func(healthy bool, start time.Time, err error) {
		mu.Lock()
		calls = append(calls, faultCall{healthy, phase.Load().(string), time.Since(start), err})
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for g := range 12 {
		m := g % 3 // master 0 is the one that fails
		tag := tags[m]
		wg.Go(func() {
			value, dirty := Key("fault", tag, "v"), Key("fault", tag, "dirty")
			lock := Key("fault", tag, "lock", fmt.Sprint(g))
			for i := 0; !stop.Load(); i++ {
				cctx, cancel := context.WithTimeout(ctx, timeout)
				start := time.Now()
				var err error
				if g%2 == 0 {
					_, err = c.MaxUpdate(cctx, value, dirty, "m", int64(i))
				} else {
					var l *Lock
					if l, err = c.Obtain(cctx, lock, time.Second, nil); err == nil {
						err = l.Release(cctx)
					}
				}
				cancel()
				record(m != 0, start, err)
				if err != nil {
					time.Sleep(5 * time.Millisecond) // no busy loop on a dead shard
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond)
	phase.Store("paused")
	cl.Masters[0].Pause(t)
	time.Sleep(2 * time.Second)
	phase.Store("killed")
	cl.Masters[0].Kill(t)
	time.Sleep(time.Second)
	stop.Store(true)
	wg.Wait()

	for _, p := range []string{"healthy", "paused", "killed"} {
		var ok, failed int
		var lat []time.Duration
		var firstErr error
		for _, call := range calls {
			if call.phase != p || !call.healthy {
				continue
			}
			if call.err != nil {
				failed++
				if firstErr == nil {
					firstErr = call.err
				}
				continue
			}
			ok++
			lat = append(lat, call.latency)
		}
		slices.Sort(lat)
		if ok == 0 {
			t.Errorf("%s: no call on a healthy master succeeded (%d failed, first: %v)", p, failed, firstErr)
			continue
		}
		p99 := lat[len(lat)*99/100]
		t.Logf("%s: healthy masters: %d ok, %d failed (first: %v), latency p50 %v p99 %v max %v", p, ok, failed, firstErr, lat[len(lat)/2], p99, lat[len(lat)-1])
		// A healthy master answers in milliseconds; a failure here means
		// its calls waited for the failed one.
		if failed > ok/10 {
			t.Errorf("%s: %d of %d calls on healthy masters failed (first: %v)", p, failed, ok+failed, firstErr)
		}
	}
	var late int
	var worst faultCall
	for _, call := range calls {
		if call.latency > timeout+deadlineSlack {
			late++
			if call.latency > worst.latency {
				worst = call
			}
		}
		if call.err != nil && !call.healthy && call.phase == "paused" &&
			!errors.Is(call.err, context.DeadlineExceeded) {
			t.Errorf("call on the paused master failed with %v, want an error wrapping context.DeadlineExceeded", call.err)
		}
	}
	if late > 0 {
		t.Errorf("%d of %d calls outlived their %v deadline by more than %v; worst %v (healthy master %v, %s): %v",
			late, len(calls), timeout, deadlineSlack, worst.latency, worst.healthy, worst.phase, worst.err)
	}
}

// TestFaultWaitingObtainHonoursContext ends the context of an Obtain that
// waits for a lock another Client holds, by deadline and by cancel, and
// checks that it returns at once with ErrNotObtained wrapping the context's
// error. The wait on the wake-up list used to run to its end (256-512ms).
func TestFaultWaitingObtainHonoursContext(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("fcancel", tagged(t), "lock")
		holder, err := New(newClient(t, rdb), nil).Obtain(ctx, key, 30*time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { holder.Release(ctx) })
		c := New(rdb, nil)
		const trials = 8
		const after = 100 * time.Millisecond
		for _, how := range []string{"deadline", "cancel"} {
			var worst time.Duration
			for range trials {
				cctx, cancel := context.WithTimeout(ctx, after)
				if how == "cancel" {
					cctx, cancel = context.WithCancel(ctx)
					time.AfterFunc(after, cancel)
				}
				start := time.Now()
				_, err := c.Obtain(cctx, key, time.Second, nil)
				over := time.Since(start) - after
				cancel()
				want := context.DeadlineExceeded
				if how == "cancel" {
					want = context.Canceled
				}
				if !errors.Is(err, ErrNotObtained) || !errors.Is(err, want) {
					t.Fatalf("%s: Obtain returned %v, want ErrNotObtained wrapping %v", how, err, want)
				}
				worst = max(worst, over)
			}
			t.Logf("%s: worst return %v after the context ended", how, worst)
			if worst > deadlineSlack {
				t.Errorf("%s: a waiting Obtain returned %v after its context ended, want at most %v", how, worst, deadlineSlack)
			}
		}
	})
}

// TestFaultInProcessTakeoverOfExpiredLock lets a lock held through one
// Client expire without Release (its holder died) while another goroutine
// of the same Client waits for it: the waiter must get it just after the
// lease, as a waiter of another Client does. It used to sleep out a backoff
// of 256-512ms first.
func TestFaultInProcessTakeoverOfExpiredLock(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		const lease = 50 * time.Millisecond
		const trials = 5
		var took []time.Duration
		for i := range trials {
			key := Key("ftake", tagged(t), fmt.Sprint(i))
			start := time.Now()
			if _, err := c.Obtain(ctx, key, lease, nil); err != nil {
				t.Fatal(err)
			}
			// The holder never releases: it died.
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			l, err := c.Obtain(wctx, key, time.Second, nil)
			cancel()
			if err != nil {
				t.Fatalf("waiter: %v", err)
			}
			took = append(took, time.Since(start))
			l.Release(ctx)
		}
		slices.Sort(took)
		t.Logf("takeover after %v (lease %v)", took, lease)
		// The median: one trial slowed by the loaded machine must not fail
		// the test, a backoff taken every time must.
		if med := took[trials/2]; med > lease+150*time.Millisecond {
			t.Errorf("median takeover %v after a %v lease, want within the lease + 150ms", med, lease)
		}
	})
}
