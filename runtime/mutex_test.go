package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestMutualExclusionUnderFaults runs at least 100,000 acquisitions of a few
// locks by goroutines on separate clients, each incrementing a per-lock
// counter non-atomically (load, yield, store) inside its critical section,
// while faults are injected: SCRIPT FLUSH every 200ms, CLIENT PAUSE WRITE
// for 100ms (shorter than the 250ms TTL) and for 400ms (longer), and holders
// that stop refreshing and sleep past their TTL. A holder only works while
// its lease lasts (before Deadline, or while its KeepAlive context lives).
// Any overlap would show up as two goroutines inside at once or as a lost
// increment.
func TestMutualExclusionUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("long-running")
	}
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		const (
			locks      = 8
			clients    = 6
			perClient  = 4
			target     = 100_000
			ttl        = 250 * time.Millisecond
			staleEvery = 3000
		)
		ctx := context.Background()
		id := tagged(t)
		keys := make([]string, locks)
		for i := range keys {
			keys[i] = Key("mutex", fmt.Sprintf("%s%d", id, i), "lock")
		}
		var (
			inside    [locks]atomic.Int32
			counter   [locks]atomic.Int64
			entered   [locks]atomic.Int64
			overlaps  atomic.Int64
			acquired  atomic.Int64
			skipped   atomic.Int64 // acquired but the lease had already run out
			lostOnRel atomic.Int64
			stale     atomic.Int64
		)
		hooks := &recordingHooks{}
		stop := make(chan struct{})
		var stopOnce sync.Once
		var wg sync.WaitGroup
		for cl := range clients {
			c := New(newClient(t, rdb), &Options{Hooks: hooks})
			for g := range perClient {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(uint64(cl), uint64(g)))
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						k := r.IntN(locks)
						octx, cancel := context.WithTimeout(ctx, 5*time.Second)
						l, err := c.Obtain(octx, keys[k], ttl, nil)
						cancel()
						if err != nil {
							t.Errorf("obtain: %v", err)
							stopOnce.Do(func() { close(stop) })
							return
						}
						if acquired.Add(1) >= target {
							stopOnce.Do(func() { close(stop) })
						}
						work := func() {
							if inside[k].Add(1) != 1 {
								overlaps.Add(1)
							}
							v := counter[k].Load()
							goruntime.Gosched()
							counter[k].Store(v + 1)
							entered[k].Add(1)
							inside[k].Add(-1)
						}
						if i%staleEvery == staleEvery-1 {
							// A holder whose watchdog stops renewing (here by
							// its maximum hold) and who then stalls past the
							// TTL: its context must be dead by then.
							kctx, err := l.KeepAlive(ctx, &KeepAliveOptions{Interval: ttl / 4, MaxHold: ttl / 5})
							if err != nil {
								t.Error(err)
								return
							}
							time.Sleep(ttl + 150*time.Millisecond)
							if kctx.Err() == nil {
								t.Errorf("stalled holder's context alive after its lease")
								work()
							}
							if err := l.Release(ctx); !errors.Is(err, ErrLockLost) {
								t.Errorf("stalled holder's release: %v, want ErrLockLost", err)
							}
							stale.Add(1)
							continue
						}
						if time.Now().Before(l.Deadline()) {
							work()
						} else {
							skipped.Add(1)
						}
						if err := l.Release(ctx); err != nil {
							if !errors.Is(err, ErrLockLost) {
								t.Errorf("release: %v", err)
							}
							lostOnRel.Add(1)
						}
					}
				})
			}
		}

		// Faults: the pauses early, while every goroutine is busy; script
		// flushes throughout.
		faults := newClient(t, rdb)
		var fw sync.WaitGroup
		fw.Go(func() {
			tick := time.NewTicker(200 * time.Millisecond)
			defer tick.Stop()
			step := 0
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				step++
				flushScripts(t, faults)
				switch step {
				case 3:
					pauseWrites(t, faults, 100*time.Millisecond)
				case 8:
					pauseWrites(t, faults, 400*time.Millisecond)
				}
			}
		})
		wg.Wait()
		fw.Wait()

		var total, entries int64
		for k := range locks {
			total += counter[k].Load()
			entries += entered[k].Load()
		}
		hooks.mu.Lock()
		reloads := 0
		for _, n := range hooks.reloads {
			reloads += n
		}
		hooks.mu.Unlock()
		t.Logf("acquisitions %d, critical sections %d, lease expired before work %d, lost at release %d, stalled holders %d, NOSCRIPT reloads %d",
			acquired.Load(), entries, skipped.Load(), lostOnRel.Load(), stale.Load(), reloads)
		if overlaps.Load() != 0 {
			t.Fatalf("%d overlapping critical sections", overlaps.Load())
		}
		if total != entries {
			t.Fatalf("counters sum to %d after %d increments: lost updates", total, entries)
		}
		if acquired.Load() < target {
			t.Fatalf("only %d acquisitions", acquired.Load())
		}
		if reloads == 0 || stale.Load() == 0 {
			t.Fatalf("faults not exercised: %d reloads, %d stalled holders", reloads, stale.Load())
		}
	})
}

// pauseWrites runs CLIENT PAUSE ... WRITE on every server behind rdb.
func pauseWrites(t *testing.T, rdb redis.UniversalClient, d time.Duration) {
	eachServer(t, rdb, func(n *redis.Client) {
		if err := n.Do(context.Background(), "CLIENT", "PAUSE", d.Milliseconds(), "WRITE").Err(); err != nil {
			t.Errorf("CLIENT PAUSE: %v", err)
		}
	})
}
