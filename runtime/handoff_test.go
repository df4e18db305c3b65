package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
)

// keysMatching lists the keys matching pattern on every server of rdb.
func keysMatching(t testing.TB, rdb redis.UniversalClient, pattern string) []string {
	t.Helper()
	ctx := context.Background()
	var mu sync.Mutex
	var out []string
	collect := func(ctx context.Context, n *redis.Client) error {
		keys, err := n.Keys(ctx, pattern).Result()
		mu.Lock()
		out = append(out, keys...)
		mu.Unlock()
		return err
	}
	var err error
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, collect)
	} else {
		err = collect(ctx, rdb.(*redis.Client))
	}
	if err != nil {
		t.Fatalf("KEYS %s: %v", pattern, err)
	}
	sort.Strings(out)
	return out
}

// queueWaiter queues a waiter for the lock at key that is not a Client: one
// obtain attempt with token that keeps its place for hold, then, when
// block is set, BLPOP on its wake-up list on a connection of its own, in
// the background. It returns the waiter's place and a channel that reports
// whether the waiter was woken (false when the BLPOP failed, already
// reported, or block is not set).
func queueWaiter(t *testing.T, rdb redis.UniversalClient, key, token, name string, hold, window time.Duration, block bool) (place int64, woken <-chan bool) {
	t.Helper()
	ctx := context.Background()
	fence, queue, err := lockKeys(key)
	must(t, err)
	conn := newNamedClient(t, rdb, name)
	r, err := conn.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence, queue}, token, 10000, "0", hold.Milliseconds(), window.Milliseconds()).Result()
	must(t, err)
	v, err := parseObtainReply(r)
	if err != nil || v.acquired || v.place == 0 {
		t.Fatalf("queueing %s: %+v, %v", token, v, err)
	}
	ch := make(chan bool, 1)
	if !block {
		ch <- false
		return v.place, ch
	}
	inBackground(t, func(bg context.Context) {
		_, err := conn.BLPop(bg, 5*time.Second, wakeKey(queue, v.place)).Result()
		if err != nil && bg.Err() == nil {
			t.Error(err)
		}
		ch <- err == nil
	})
	return v.place, ch
}

// waitQueued waits until n callers are in the wake-up queue of the lock at
// key (a caller the lock is reserved for counts until it claims it).
func waitQueued(t *testing.T, rdb redis.UniversalClient, key string, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := rdb.ZCard(context.Background(), WakeKey(key)).Result()
		if err == nil && got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %d queued callers: %d, %v", n, got, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestHandoffToQueuedWaiter: a holder that releases while another process
// waits and asks again at once must queue behind that waiter, and the
// waiter gets the lock with a greater fencing token. The holder's hand-off
// window of a minute keeps the reservation however late the waiter claims
// on a loaded machine: a reservation that lapsed unclaimed would let the
// holder take the lock back, as designed.
func TestHandoffToQueuedWaiter(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("handoff", tagged(t), "lock")
		holder := New(rdb, &Options{HandoffWindow: time.Minute})
		first, err := holder.Obtain(ctx, key, 10*time.Second, nil)
		must(t, err)
		waiter := New(newClient(t, rdb), nil)
		got := make(chan *Lock, 1)
		inBackground(t, func(bg context.Context) {
			l, err := waiter.Obtain(bg, key, 10*time.Second, nil)
			if err != nil && bg.Err() == nil {
				t.Error(err)
			}
			got <- l
		})
		waitQueued(t, rdb, key, 1)
		must(t, first.Release(ctx))
		if _, err := holder.Obtain(ctx, key, 10*time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
			t.Fatalf("the releaser took the lock back past a queued waiter: %v", err)
		}
		// The releaser waits in turn and gets the lock after the waiter.
		again := make(chan *Lock, 1)
		inBackground(t, func(bg context.Context) {
			l, err := holder.Obtain(bg, key, 10*time.Second, nil)
			if err != nil && bg.Err() == nil {
				t.Error(err)
			}
			again <- l
		})
		var w *Lock
		select {
		case w = <-got:
		case <-time.After(5 * time.Second):
			t.Fatal("the queued waiter did not get the lock")
		}
		if w == nil {
			return
		}
		if w.Fence() <= first.Fence() || w.Count() != 1 {
			t.Fatalf("waiter's fence %d (holder's %d), count %d", w.Fence(), first.Fence(), w.Count())
		}
		time.Sleep(20 * time.Millisecond)
		must(t, w.Release(ctx))
		var h *Lock
		select {
		case h = <-again:
		case <-time.After(5 * time.Second):
			t.Fatal("the releaser did not get the lock after the waiter")
		}
		if h == nil {
			return
		}
		if h.Fence() <= w.Fence() {
			t.Fatalf("fence %d after %d", h.Fence(), w.Fence())
		}
		must(t, h.Release(ctx))
		if n := rdb.Exists(ctx, key).Val(); n != 0 {
			t.Fatalf("lock key left after the last release")
		}
	})
}

// TestHandoffToDeadWaiter queues a waiter that is woken by the release
// and dies before claiming the lock: the reservation keeps the lock from
// others for the hand-off window only, a newcomer that asks during the
// window gets the lock right after it, and the fencing token still grows.
// A claim with another caller's place or token claims nothing.
//
// The checks made during the reservation only say something while it
// lasts: one that fails after the window may have ended (measured from
// before the release, which the server ran later) is inconclusive, and the
// run starts again with twice the window; one that fails within it fails
// the test. On a loaded machine the steps took longer than 150ms.
func TestHandoffToDeadWaiter(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		retryConclusive(t, "hand-off window", 150*time.Millisecond, 5*time.Second, func(attempt int, window time.Duration) bool {
			return handoffToDeadWaiter(t, rdb, Key("deadwaiter", fmt.Sprintf("%s-%d", tagged(t), attempt), "lock"), window)
		})
	})
}

// handoffToDeadWaiter is one run of TestHandoffToDeadWaiter; it returns
// false when the run was inconclusive.
func handoffToDeadWaiter(t *testing.T, rdb redis.UniversalClient, key string, window time.Duration) bool {
	ctx := context.Background()
	fence, queue, err := lockKeys(key)
	must(t, err)
	c := New(rdb, &Options{HandoffWindow: window})
	holder, err := c.Obtain(ctx, key, 10*time.Second, nil)
	must(t, err)

	// The dead waiter is woken and never claims.
	place, woken := queueWaiter(t, rdb, key, "dead-token", "", time.Minute, window, true)
	released := time.Now()
	must(t, holder.Release(ctx))
	if !<-woken {
		return true
	}
	// failed reports a check that failed: fatal while the reservation
	// surely lasted, inconclusive after.
	failed := func(format string, args ...any) bool {
		t.Helper()
		if time.Since(released) >= window {
			t.Logf("inconclusive, %v after the release: "+format, append([]any{time.Since(released)}, args...)...)
			return false
		}
		t.Fatalf(format, args...)
		return false
	}
	if got := rdb.HGet(ctx, key, "place").Val(); got != strconv.FormatInt(place, 10) {
		return failed("reserved for place %q, want the dead waiter's %d", got, place)
	}
	// Another caller's token or place claims nothing and leaves the
	// reservation alone.
	before := snapshot(t, rdb, key)
	for _, claim := range []struct {
		token string
		place int64
	}{{"forger", place}, {"dead-token", place + 1}} {
		r, err := rdb.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence, queue}, claim.token, 10000, strconv.FormatInt(claim.place, 10), 1, window.Milliseconds()).Result()
		must(t, err)
		if v, err := parseObtainReply(r); err != nil || v.acquired || !v.reserved || v.holderTTL > window {
			if v.acquired {
				rdb.Del(ctx, key)
			}
			return failed("claim by %s at %d: %+v, %v", claim.token, claim.place, v, err)
		}
	}
	if !equal(before, snapshot(t, rdb, key)) {
		return failed("a forged claim changed the reservation")
	}
	time.Sleep(2 * time.Millisecond) // the forgers' places (1ms) run out
	if l, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
		if l != nil {
			l.Release(ctx)
		}
		return failed("NoWait during the reservation: %v, want ErrNotObtained", err)
	}

	// A newcomer waits for the end of the window, then gets the lock.
	l, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, nil)
	must(t, err)
	if l.Fence() <= holder.Fence() {
		t.Fatalf("fence %d after %d", l.Fence(), holder.Fence())
	}
	must(t, l.Release(ctx))

	// The dead waiter lost its place with the reservation: asking again,
	// it is a newcomer to a free lock, with a new fence.
	r, err := rdb.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence, queue}, "dead-token", 10000, strconv.FormatInt(place, 10), 1000, window.Milliseconds()).Result()
	must(t, err)
	if v, err := parseObtainReply(r); err != nil || !v.acquired || v.fence <= l.Fence() {
		t.Fatalf("after the window the lock is free for anyone, with a new fence: %+v, %v", v, err)
	}
	rdb.Del(ctx, key)
	return true
}

// TestHandoffKeepsPlaceBehindReservation: a caller that asks while the
// lock is reserved for a claimant, with others queued ahead of it, keeps
// its place in the queue for longer than the hand-off window and the wait
// bound. Order: A queues while the lock is held, the release reserves the
// lock for D (which claims late), R asks during the reservation, B asks
// after D claimed; D holds the lock past the end of the window it was
// reserved in and past A's, R's and B's waits on their wake-up lists. A, R
// and B must get the lock in that order.
//
// The window has to outlast the test's steps up to D's claim: a claim that
// fails after the window may have ended (measured from before the release)
// is inconclusive, and the run starts again with twice the window; one
// that fails within it fails the test.
func TestHandoffKeepsPlaceBehindReservation(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		retryConclusive(t, "hand-off window", 250*time.Millisecond, 5*time.Second, func(attempt int, window time.Duration) bool {
			return keepsPlaceBehindReservation(t, rdb, Key("keepplace", fmt.Sprintf("%s-%d", tagged(t), attempt), "lock"), window)
		})
	})
}

// keepsPlaceBehindReservation is one run of
// TestHandoffKeepsPlaceBehindReservation; it returns false when the run was
// inconclusive.
func keepsPlaceBehindReservation(t *testing.T, rdb redis.UniversalClient, key string, window time.Duration) bool {
	ctx := context.Background()
	fence, queue, err := lockKeys(key)
	must(t, err)
	// The test's clients carry one name, so that waitBlocked counts
	// them only: other packages' tests block in BLPOP on the shared
	// servers too.
	name := fmt.Sprintf("keepplace-%d", time.Now().UnixNano())
	// The hand-offs after D's (to A, R and B) have a window of a minute,
	// so that a waiter slow to claim keeps its turn: with the window of
	// D's reservation, A was once woken and claimed too late on a loaded
	// machine, and queued again behind R and B (order [R B A]), as a
	// waiter that misses its window should.
	later := &Options{HandoffWindow: time.Minute}
	newLocker := func(opts *Options) *Client { return New(newNamedClient(t, rdb, name), opts) }
	holder, err := newLocker(&Options{HandoffWindow: window}).Obtain(ctx, key, 10*time.Second, nil)
	must(t, err)

	// D, the claimant, queues first.
	place, woken := queueWaiter(t, rdb, key, "d-token", name, time.Minute, window, true)

	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	take := func(name string) {
		c := newLocker(later)
		wg.Go(func() {
			octx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			l, err := c.Obtain(octx, key, 10*time.Second, nil)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			if err := l.Release(ctx); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	// waitBlocked waits until the server holding the lock's keys has
	// at least n of the test's clients blocked in BLPOP.
	node := rdb
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		m, err := cc.MasterForKey(ctx, queue)
		must(t, err)
		node = m
	}
	waitBlocked := func(n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			list, err := node.ClientList(ctx).Result()
			must(t, err)
			var got int
			for line := range strings.Lines(list) {
				fields := strings.Fields(line)
				if slices.Contains(fields, "name="+name) && slices.Contains(fields, "cmd=blpop") && slices.ContainsFunc(fields, func(f string) bool {
					flags, ok := strings.CutPrefix(f, "flags=")
					return ok && strings.Contains(flags, "b")
				}) {
					got++
				}
			}
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %d clients blocked in BLPOP: %d", n, got)
			}
			time.Sleep(time.Millisecond)
		}
	}
	take("A") // queued behind D while the lock is held
	waitQueued(t, rdb, key, 2)
	waitBlocked(2) // D and A

	released := time.Now()
	must(t, holder.Release(ctx))
	if !<-woken {
		return true
	}
	take("R") // asks while the lock is reserved for D
	// D, A and R are queued while the reservation lasts. Once it lapsed,
	// R's attempt reserves the lock for A instead, and A and R take it.
	for {
		n, err := rdb.ZCard(ctx, queue).Result()
		must(t, err)
		if n == 3 {
			break
		}
		if time.Since(released) >= window {
			t.Logf("inconclusive, %v after the release: %d queued, want D, A and R", time.Since(released), n)
			wg.Wait()
			return false
		}
		time.Sleep(time.Millisecond)
	}
	r, err := rdb.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence, queue}, "d-token", 10000, strconv.FormatInt(place, 10), time.Minute.Milliseconds(), window.Milliseconds()).Result()
	must(t, err)
	if v, err := parseObtainReply(r); err != nil || !v.acquired {
		if err == nil && time.Since(released) >= window {
			// The lock went to A instead, then to R: let them finish.
			t.Logf("inconclusive, %v after the release: D claiming its reservation: %+v", time.Since(released), v)
			wg.Wait()
			return false
		}
		t.Fatalf("D claiming its reservation: %+v, %v", v, err)
	}
	take("B")                  // asks while D holds the lock
	waitQueued(t, rdb, key, 3) // A, R and B; D left the queue when it claimed
	// D holds the lock past the end of the window it was reserved in,
	// and A, R and B time out on their wake-up lists meanwhile.
	time.Sleep(window + 2*newLocker(later).waitBound() - time.Since(released))
	r, err = rdb.EvalSha(ctx, releaseScript.SHA1(), []string{key, fence, queue}, "d-token", later.HandoffWindow.Milliseconds()).Result()
	must(t, err)
	left, _, next, err := parseReleaseReply(r)
	if err != nil || left != 0 || next == 0 {
		t.Fatalf("D's release: left %d, place %d, %v; want the lock handed on", left, next, err)
	}
	newLocker(later).wakeQueued(ctx, queue, next) // as Release does
	wg.Wait()
	if fmt.Sprint(order) != "[A R B]" {
		t.Fatalf("acquisition order %v, want [A R B]", order)
	}
	return true
}

// TestHandoffFairAcrossClients has goroutines with a Client each (as
// separate processes) take one lock in turn, each asking again right after
// its release. Every goroutine must get a fair share, fencing tokens must
// grow with every acquisition, the sections must not overlap, and once
// the run is over only the fencing counter may be left in Redis.
func TestHandoffFairAcrossClients(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		const (
			goroutines = 8
			total      = 400
		)
		id := tagged(t)
		key := Key("fair", id, "lock")
		before := keysMatching(t, rdb, "*{"+id+"}*")
		var (
			mu     sync.Mutex
			fences []int64
			counts [goroutines]int
			inside int
			next   int
		)
		var wg sync.WaitGroup
		for i := range goroutines {
			c := New(newClient(t, rdb), nil)
			wg.Go(func() {
				for {
					mu.Lock()
					next++
					more := next <= total
					mu.Unlock()
					if !more {
						return
					}
					octx, cancel := context.WithTimeout(ctx, 20*time.Second)
					l, err := c.Obtain(octx, key, 5*time.Second, nil)
					cancel()
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					inside++
					if inside != 1 {
						t.Errorf("%d holders at once", inside)
					}
					fences = append(fences, l.Fence())
					counts[i]++
					mu.Unlock()
					time.Sleep(500 * time.Microsecond)
					mu.Lock()
					inside--
					mu.Unlock()
					if err := l.Release(ctx); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		for i := 1; i < len(fences); i++ {
			if fences[i] <= fences[i-1] {
				t.Fatalf("acquisition %d: fence %d after %d", i, fences[i], fences[i-1])
			}
		}
		// A strict queue gives each goroutine total/goroutines = 50; allow
		// for scheduling on a busy machine, but not for starvation.
		if lo, hi := slices.Min(counts[:]), slices.Max(counts[:]); lo < total/goroutines/3 || hi > 3*total/goroutines {
			t.Errorf("cycles per goroutine from %d to %d, want near %d: %v", lo, hi, total/goroutines, counts)
		}
		// Only wake-up lists may outlive the run: one that a BLPOP given up
		// popped goes back on its list (asynchronously) and expires with
		// the hand-off window. The lock and its queue are gone at once.
		wakeLists := WakeKey(key) + ":"
		for deadline := time.Now().Add(10 * time.Second); ; {
			after := keysMatching(t, rdb, "*{"+id+"}*")
			if fmt.Sprint(after) == fmt.Sprint(before) {
				break
			}
			for _, k := range after {
				if !slices.Contains(before, k) && !strings.HasPrefix(k, wakeLists) {
					t.Fatalf("keys after the run: %v, want %v and wake-up lists", after, before)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("wake-up lists still there 10s after the run: %v", after)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// TestLockAndSetClaimsHandoff: a waiter using LockAndSet gets the lock by
// the hand-off and writes the state with its own, newer fencing token.
func TestLockAndSetClaimsHandoff(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		id := tagged(t)
		key, state := Key("lsh", id, "lock"), Key("lsh", id, "state")
		holder, err := New(rdb, nil).Obtain(ctx, key, 10*time.Second, nil)
		must(t, err)
		got := make(chan *Lock, 1)
		other := New(newClient(t, rdb), nil)
		inBackground(t, func(bg context.Context) {
			l, err := other.LockAndSet(bg, key, 10*time.Second,
				StateWrite{Key: state, Field: "f", Value: "w", TTL: time.Minute}, nil)
			if err != nil && bg.Err() == nil {
				t.Error(err)
			}
			got <- l
		})
		waitQueued(t, rdb, key, 1)
		if n := rdb.Exists(ctx, state).Val(); n != 0 {
			t.Fatal("a waiting LockAndSet wrote the state")
		}
		must(t, holder.Release(ctx))
		l := <-got
		if l == nil {
			return
		}
		if l.Fence() <= holder.Fence() {
			t.Fatalf("fence %d after %d", l.Fence(), holder.Fence())
		}
		if v := rdb.HGet(ctx, state, "__fence").Val(); v != strconv.FormatInt(l.Fence(), 10) {
			t.Fatalf("state fence %q, want %d", v, l.Fence())
		}
		must(t, l.Release(ctx))
		rdb.Del(ctx, state)
	})
}

// TestQueueOrderUnderLongHold: waiters of separate Clients that queue in a
// known order while the holder keeps the lock, by KeepAlive, past its TTL
// for many times their wait bound (so that each of them times out on its
// wake-up list and asks again many times) get the lock in the order they
// queued, as they do when each of them then holds it for a few wait bounds
// in turn. A holder whose watchdog no renewal got through for a whole lease
// loses the lock early, past its Deadline, rightly, and the hold the test
// is about did not happen: that run is inconclusive, and the test runs
// again with a lease and a hold twice as long.
func TestQueueOrderUnderLongHold(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		retryConclusive(t, "lease", 500*time.Millisecond, 4*time.Second, func(attempt int, ttl time.Duration) bool {
			return queueOrderUnderLongHold(t, rdb, Key("fifo", fmt.Sprintf("%s-%d", tagged(t), attempt), "lock"), ttl)
		})
	})
}

// queueOrderUnderLongHold is one run of TestQueueOrderUnderLongHold with a
// lease of ttl; it returns false when the run was inconclusive.
func queueOrderUnderLongHold(t *testing.T, rdb redis.UniversalClient, key string, ttl time.Duration) bool {
	ctx := context.Background()
	const waiters = 5
	// The hand-offs have a window of a minute, so that a waiter slow to
	// claim keeps its turn: with the default 100ms, on a loaded machine, a
	// waiter lost its turn (order [0 2 3 4 1]) as one that misses its
	// window, or asks again only after its hold (1.06s here), should.
	opts := &Options{MaxBackoff: 2 * time.Millisecond, HandoffWindow: time.Minute}
	bound := New(rdb, opts).waitBound()
	hooks := &recordingHooks{}
	holder, err := New(newClient(t, rdb), &Options{MaxBackoff: opts.MaxBackoff, HandoffWindow: opts.HandoffWindow, Hooks: hooks}).Obtain(ctx, key, ttl, nil)
	must(t, err)
	if _, err := holder.KeepAlive(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range waiters {
		c := New(newClient(t, rdb), opts)
		wg.Go(func() {
			octx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			l, err := c.Obtain(octx, key, time.Second, nil)
			if err != nil {
				t.Errorf("waiter %d: %v", i, err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			time.Sleep(3 * bound)
			if err := l.Release(ctx); err != nil {
				t.Errorf("waiter %d: %v", i, err)
			}
		})
		// Waiter i queues, unless the holder lost the lock first.
		for deadline := time.Now().Add(10 * time.Second); ; {
			n, err := rdb.ZCard(ctx, WakeKey(key)).Result()
			must(t, err)
			if n == int64(i+1) {
				break
			}
			hooks.mu.Lock()
			lost := len(hooks.lost) > 0
			hooks.mu.Unlock()
			if lost {
				holder.Release(ctx)
				wg.Wait()
				if !hooks.lostPastDeadline(holder, time.Now()) {
					t.Fatalf("the holder lost the lock before its deadline: %v", hooks.lost)
				}
				t.Logf("inconclusive: the holder lost the lock under KeepAlive while waiter %d queued: %v", i, hooks.lost)
				return false
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %d queued callers: %d", i+1, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	// Past the lock's TTL, which KeepAlive renews: 25 wait bounds for the
	// first lease of 500ms.
	time.Sleep(ttl * 8 / 5)
	err = holder.Release(ctx)
	released := time.Now()
	wg.Wait()
	if errors.Is(err, ErrLockLost) && hooks.lostPastDeadline(holder, released) {
		t.Logf("inconclusive: the holder lost the lock under KeepAlive: %v", err)
		return false
	}
	must(t, err)
	if fmt.Sprint(order) != "[0 1 2 3 4]" {
		t.Fatalf("acquisition order %v, want the order of arrival [0 1 2 3 4]", order)
	}
	return true
}

// TestQueueHeadThatLeft queues a caller at the head of the queue that then
// leaves, with two others of separate Clients behind it: one whose context
// is cancelled (it takes itself out of the queue) and one that dies right
// after queueing (its place stays until the release reserves the lock for
// it and the reservation lapses after the hand-off window; the caller
// behind it asks again within its wait bound). Either way the others get
// the lock, in their order, and the queue is empty afterwards. The bound
// on their wait is the hand-off window and the wait bound (Options); the
// test's deadlines only guard against a hang.
func TestQueueHeadThatLeft(t *testing.T) {
	for _, how := range []string{"cancelled", "died"} {
		t.Run(how, func(t *testing.T) {
			servers(t, func(t *testing.T, rdb redis.UniversalClient) {
				ctx := context.Background()
				// Hand-offs have a window of a minute, so that a waiter
				// slow to claim on a loaded machine keeps its turn, but for
				// the holder's release to a dead waiter, which lapses after
				// 50ms.
				opts := &Options{MaxBackoff: 2 * time.Millisecond, HandoffWindow: time.Minute}
				holderOpts := *opts
				if how == "died" {
					holderOpts.HandoffWindow = 50 * time.Millisecond
				}
				key := Key("headleft", tagged(t), "lock")
				holder, err := New(newClient(t, rdb), &holderOpts).Obtain(ctx, key, 10*time.Second, nil)
				must(t, err)
				switch how {
				case "cancelled":
					c := New(newClient(t, rdb), opts)
					octx, cancel := context.WithCancel(ctx)
					gone := make(chan error, 1)
					go func() {
						_, err := c.Obtain(octx, key, time.Second, nil)
						gone <- err
					}()
					waitQueued(t, rdb, key, 1)
					cancel()
					if err := <-gone; !errors.Is(err, ErrNotObtained) || !errors.Is(err, context.Canceled) {
						t.Fatalf("cancelled waiter: %v, want ErrNotObtained and context.Canceled", err)
					}
					waitQueued(t, rdb, key, 0) // it left the queue
				case "died":
					queueWaiter(t, rdb, key, "dead-token", "", time.Minute, holderOpts.HandoffWindow, false)
				}
				var mu sync.Mutex
				var order []string
				var wg sync.WaitGroup
				for i, name := range []string{"A", "B"} {
					c := New(newClient(t, rdb), opts)
					wg.Go(func() {
						octx, cancel := context.WithTimeout(ctx, 20*time.Second)
						defer cancel()
						l, err := c.Obtain(octx, key, 10*time.Second, nil)
						if err != nil {
							t.Errorf("%s: %v", name, err)
							return
						}
						mu.Lock()
						order = append(order, name)
						mu.Unlock()
						if err := l.Release(ctx); err != nil {
							t.Errorf("%s: %v", name, err)
						}
					})
					if how == "died" {
						i++
					}
					waitQueued(t, rdb, key, int64(i+1))
				}
				if err := holder.Release(ctx); err != nil {
					t.Error(err)
				}
				wg.Wait()
				if fmt.Sprint(order) != "[A B]" {
					t.Fatalf("acquisition order %v, want [A B]", order)
				}
				if n := rdb.Exists(ctx, key, WakeKey(key)).Val(); n != 0 {
					t.Fatalf("%d of the lock and its queue left after the last release", n)
				}
			})
		})
	}
}

// TestQueuePlaceOfCallerThatLeftInFlight pauses the server while a waiting
// Obtain's first attempt is on its way; the caller leaves at its deadline,
// and the server, resumed, runs the attempt, which queues the caller. The
// Client must take that place out of the queue again, long before it
// would run out by itself (MaxBackoff of a second keeps it for 33 s), so
// that no release reserves the lock for a caller that is gone.
func TestQueuePlaceOfCallerThatLeftInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a private server and pauses it")
	}
	srv := redistest.StartServer(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	observer := srv.Client(t)
	ctx := context.Background()
	c := New(rdb, &Options{MaxBackoff: time.Second})
	must(t, c.Preload(ctx))
	key := Key("fleft", tagged(t), "lock")
	holder, err := New(observer, nil).Obtain(ctx, key, time.Minute, nil)
	must(t, err)

	srv.Pause(t)
	octx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	_, err = c.Obtain(octx, key, time.Second, nil)
	cancel()
	if !errors.Is(err, ErrNotObtained) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Obtain on a paused server: %v, want ErrNotObtained and context.DeadlineExceeded", err)
	}
	time.Sleep(200 * time.Millisecond) // the caller is gone well before the server runs the script
	srv.Resume(t)

	// The attempt ran (the fencing counter moved for the caller's place),
	// and the place is gone again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		fence, err := observer.Get(ctx, FencingKey(key)).Int64()
		queued, err2 := observer.ZCard(ctx, WakeKey(key)).Result()
		if err == nil && err2 == nil && fence > holder.Fence() && queued == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fencing counter %d (holder's %d, %v), %d queued (%v): the place of the caller that left is still queued", fence, holder.Fence(), err, queued, err2)
		}
		time.Sleep(10 * time.Millisecond)
	}
	must(t, holder.Release(ctx))
	if n := observer.Exists(ctx, key).Val(); n != 0 {
		t.Fatal("the release reserved the lock for the caller that left")
	}
}

// TestWakeUpPoppedByAbandonedBLPOP: a waiter that stops waiting on its
// wake-up list before its BLPOP ends (a release by its own Client
// signalled) leaves that BLPOP blocked on the server; a wake-up pushed
// meanwhile is popped by it and must go back on the list, where the
// waiter's next BLPOP finds it, rather than be lost until the reservation
// it announced lapses.
func TestWakeUpPoppedByAbandonedBLPOP(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		name := fmt.Sprintf("abandoned-%d", time.Now().UnixNano())
		conn := newNamedClient(t, rdb, name)
		// The wake-up lists expire after the hand-off window: a minute
		// keeps the one put back however late the next BLPOP comes.
		c := New(conn, &Options{HandoffWindow: time.Minute})
		wake := wakeKey(WakeKey(Key("abandoned", tagged(t), "lock")), 7)
		g := &gate{wake: make(chan struct{}, 1)}
		done := make(chan error, 1)
		go func() { done <- c.blpop(ctx, g, conn, wake, 10*time.Second) }()
		// The BLPOP is blocked on the server before the signal.
		node := rdb
		if cc, ok := rdb.(*redis.ClusterClient); ok {
			m, err := cc.MasterForKey(ctx, wake)
			must(t, err)
			node = m
		}
		deadline := time.Now().Add(10 * time.Second)
		for !blockedIn(node.ClientList(ctx).Val(), name) {
			if time.Now().After(deadline) {
				t.Fatal("the BLPOP never blocked")
			}
			time.Sleep(time.Millisecond)
		}
		g.notify()
		if err := <-done; err != nil {
			t.Fatalf("blpop after the signal: %v, want nil", err)
		}
		c.pushWake(ctx, wake)
		v, err := rdb.BLPop(ctx, 5*time.Second, wake).Result()
		if err != nil || len(v) != 2 {
			t.Fatalf("the next BLPOP: %v, %v; the wake-up was lost with the abandoned BLPOP", v, err)
		}
	})
}

// blockedIn tells whether a client named name is blocked in BLPOP in a
// CLIENT LIST reply.
func blockedIn(list, name string) bool {
	for line := range strings.Lines(list) {
		fields := strings.Fields(line)
		if slices.Contains(fields, "name="+name) && slices.Contains(fields, "cmd=blpop") && slices.ContainsFunc(fields, func(f string) bool {
			flags, ok := strings.CutPrefix(f, "flags=")
			return ok && strings.Contains(flags, "b")
		}) {
			return true
		}
	}
	return false
}
