package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"sort"
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
//
// Every section is logged with its times and the holder's lease deadline.
// The lock promises that sections finishing within their lease never
// overlap; the test checks that over all sections. Under -race on two busy
// cores a goroutine can stall 100ms between two statements, so a section can
// overrun its lease; such sections are counted and reported, and any
// concurrency must be explained by them.
//
// Under the race detector, which makes each acquisition three to four times
// as costly (78 s of CPU for the standalone half, against 21 s without),
// the test runs 10,000 acquisitions with the same faults and checks; the
// 100,000 run without -race (make test: go-test-volume, RUNTIME_NORACE).
// The servers are the test's own: CLIENT PAUSE and SCRIPT FLUSH would stall
// or disturb the other packages' tests on the shared ones.
func TestMutualExclusionUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("long-running")
	}
	target := int64(100_000)
	if raceDetector {
		target = 10_000
	}
	privateServers(t, func(t *testing.T, rdb redis.UniversalClient) {
		const (
			locks     = 8
			clients   = 6
			perClient = 4
			ttl       = 250 * time.Millisecond
		)
		// About one stalled holder per goroutine, as 3,000 gave at 100,000.
		staleEvery := int(target) / (clients * perClient) * 3 / 4
		ctx := context.Background()
		id := tagged(t)
		keys := make([]string, locks)
		for i := range keys {
			keys[i] = Key("mutex", fmt.Sprintf("%s%d", id, i), "lock")
		}
		var (
			inside     [locks]atomic.Int32
			counter    [locks]atomic.Int64
			sections   [locks]sectionLog
			concurrent atomic.Int64
			acquired   atomic.Int64
			skipped    atomic.Int64 // acquired but the lease had already run out
			lostOnRel  atomic.Int64
			stale      atomic.Int64
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
							in := time.Now()
							if inside[k].Add(1) != 1 {
								concurrent.Add(1)
							}
							v := counter[k].Load()
							goruntime.Gosched()
							counter[k].Store(v + 1)
							inside[k].Add(-1)
							out := time.Now()
							sections[k].add(section{in: in, out: out, deadline: l.Deadline(), fence: l.Fence()})
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

		var total, entries, overran int64
		for k := range locks {
			total += counter[k].Load()
			entries += int64(len(sections[k].s))
			for _, o := range sections[k].overlaps() {
				t.Errorf("lock %d: sections of fences %d and %d overlap, both within their lease", k, o[0].fence, o[1].fence)
			}
			for _, sec := range sections[k].s {
				if sec.out.After(sec.deadline) {
					overran++
				}
			}
		}
		hooks.mu.Lock()
		reloads := 0
		for _, n := range hooks.reloads {
			reloads += n
		}
		hooks.mu.Unlock()
		t.Logf("acquisitions %d, critical sections %d (%d overran their lease, %d ran concurrently with another), lease expired before work %d, lost at release %d, stalled holders %d, NOSCRIPT reloads %d",
			acquired.Load(), entries, overran, concurrent.Load(), skipped.Load(), lostOnRel.Load(), stale.Load(), reloads)
		if concurrent.Load() > overran {
			t.Errorf("%d concurrent sections but only %d overran a lease", concurrent.Load(), overran)
		}
		if overran == 0 && total != entries {
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

// section is one critical section: when it ran, the holder's lease
// deadline and fencing token.
type section struct {
	in, out, deadline time.Time
	fence             int64
}

type sectionLog struct {
	mu sync.Mutex
	s  []section
}

func (l *sectionLog) add(s section) {
	l.mu.Lock()
	l.s = append(l.s, s)
	l.mu.Unlock()
}

// overlaps returns the pairs of sections that ran at the same time although
// both finished within their lease: what the lock promises never happens.
// A section that overran its lease (the process stalled past Deadline) is
// outside the promise, as with every lease-based lock; fencing tokens are
// the defence there.
func (l *sectionLog) overlaps() [][2]section {
	var within []section
	for _, s := range l.s {
		if !s.out.After(s.deadline) {
			within = append(within, s)
		}
	}
	sort.Slice(within, func(i, j int) bool { return within[i].in.Before(within[j].in) })
	var out [][2]section
	for i := 1; i < len(within); i++ {
		if within[i].in.Before(within[i-1].out) {
			out = append(out, [2]section{within[i-1], within[i]})
		}
	}
	return out
}

// pauseWrites runs CLIENT PAUSE ... WRITE on every server behind rdb.
func pauseWrites(t *testing.T, rdb redis.UniversalClient, d time.Duration) {
	eachServer(t, rdb, func(n *redis.Client) {
		if err := n.Do(context.Background(), "CLIENT", "PAUSE", d.Milliseconds(), "WRITE").Err(); err != nil {
			t.Errorf("CLIENT PAUSE: %v", err)
		}
	})
}
