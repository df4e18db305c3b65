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
// obtain attempt with token, then BLPOP on a connection of its own, in the
// background. It returns the queue's gen and the ticket the waiter is woken
// with ("" when the BLPOP failed, already reported).
func queueWaiter(t *testing.T, rdb redis.UniversalClient, key, fence, wake, token, name string) (gen int64, ticket <-chan string) {
	t.Helper()
	ctx := context.Background()
	conn := newNamedClient(t, rdb, name)
	r, err := conn.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence}, token, 10000, "0", 0).Result()
	must(t, err)
	v, err := parseObtainReply(r)
	if err != nil || v.acquired || v.gen == 0 {
		t.Fatalf("queueing %s: %+v, %v", token, v, err)
	}
	woken := make(chan string, 1)
	inBackground(t, func(bg context.Context) {
		v, err := conn.BLPop(bg, 5*time.Second, wake).Result()
		if err != nil {
			if bg.Err() == nil {
				t.Error(err)
			}
			woken <- ""
			return
		}
		woken <- v[1]
	})
	return v.gen, woken
}

// TestHandoffToQueuedWaiter: a holder that releases while another process
// waits and asks again at once must queue behind that waiter, and the
// waiter gets the lock with a greater fencing token.
func TestHandoffToQueuedWaiter(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("handoff", tagged(t), "lock")
		holder := New(rdb, nil)
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
		time.Sleep(100 * time.Millisecond) // the waiter queues and blocks
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

// TestHandoffToDeadWaiter queues a waiter that takes the release's ticket
// from the wake-up list and dies before claiming the lock: the reservation
// keeps the lock from others for the hand-off window only, a newcomer that
// asks during the window gets the lock right after it, and the fencing
// token still grows. A forged or stale ticket claims nothing.
func TestHandoffToDeadWaiter(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		const window = 150 * time.Millisecond
		key := Key("deadwaiter", tagged(t), "lock")
		fence, wake := fencingKey(key), key+":wake"
		c := New(rdb, &Options{HandoffWindow: window})
		holder, err := c.Obtain(ctx, key, 10*time.Second, nil)
		must(t, err)

		// The dead waiter takes the ticket and never claims.
		_, ticket := queueWaiter(t, rdb, key, fence, wake, "dead-token", "")
		time.Sleep(100 * time.Millisecond)

		released := time.Now()
		must(t, holder.Release(ctx))
		tk := <-ticket
		if tk == "" {
			return
		}
		if n, err := strconv.ParseInt(tk, 10, 64); err != nil || n <= holder.Fence() {
			t.Fatalf("ticket %q after fence %d", tk, holder.Fence())
		}
		// A forged ticket claims nothing and leaves the reservation alone.
		before := snapshot(t, rdb, key)
		r, err := rdb.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence}, "forger", 10000, "-", tk+"0").Result()
		must(t, err)
		if v, err := parseObtainReply(r); err != nil || v.acquired || !v.reserved || v.holderTTL > window {
			t.Fatalf("forged ticket: %+v, %v", v, err)
		}
		if !equal(before, snapshot(t, rdb, key)) {
			t.Fatal("a forged ticket changed the reservation")
		}
		if _, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
			t.Fatalf("NoWait during the reservation: %v, want ErrNotObtained", err)
		}

		// A newcomer waits for the end of the window, not longer.
		l, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, nil)
		must(t, err)
		waited := time.Since(released)
		if waited > window+250*time.Millisecond {
			t.Fatalf("newcomer got the lock %v after the release; the window is %v", waited, window)
		}
		if l.Fence() <= holder.Fence() {
			t.Fatalf("fence %d after %d", l.Fence(), holder.Fence())
		}
		must(t, l.Release(ctx))

		// The dead waiter's ticket is stale now.
		r, err = rdb.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence}, "dead-token", 10000, "-", tk).Result()
		must(t, err)
		if v, err := parseObtainReply(r); err != nil || !v.acquired || v.fence <= l.Fence() {
			t.Fatalf("after the window the lock is free for anyone, with a new fence: %+v, %v", v, err)
		}
		rdb.Del(ctx, key)
	})
}

// TestHandoffKeepsPlaceBehindReservation: a caller that asks while the
// lock is reserved for a claimant, with others queued ahead of it, keeps
// its place in the queue for longer than the hand-off window. Order: A
// queues while the lock is held, the release reserves the lock for D (which
// claims late), R asks during the reservation, B asks after the window
// would have ended. A, R and B must get the lock in that order.
func TestHandoffKeepsPlaceBehindReservation(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		const window = 100 * time.Millisecond
		key := Key("keepplace", tagged(t), "lock")
		fence, wake, err := lockKeys(key)
		must(t, err)
		// The test's clients carry one name, so that waitBlocked counts
		// them only: other packages' tests block in BLPOP on the shared
		// servers too, and counting theirs let B's BLPOP go before R's.
		name := fmt.Sprintf("keepplace-%d", time.Now().UnixNano())
		newLocker := func() *Client { return New(newNamedClient(t, rdb, name), &Options{HandoffWindow: window}) }
		holder, err := newLocker().Obtain(ctx, key, 10*time.Second, nil)
		must(t, err)

		// D, the claimant, queues first.
		gen, ticket := queueWaiter(t, rdb, key, fence, wake, "d-token", name)
		time.Sleep(50 * time.Millisecond)

		var mu sync.Mutex
		var order []string
		var wg sync.WaitGroup
		take := func(name string) {
			c := newLocker()
			wg.Go(func() {
				octx, cancel := context.WithTimeout(ctx, 5*time.Second)
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
		// waitQueued waits until the lock counts n queued callers.
		waitQueued := func(n int64) {
			t.Helper()
			deadline := time.Now().Add(5 * time.Second)
			for {
				got, err := rdb.HGet(ctx, key, "waiters").Int64()
				if err == nil && got == n {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("waiting for %d queued callers: %d, %v", n, got, err)
				}
				time.Sleep(time.Millisecond)
			}
		}
		// waitBlocked waits until the server holding the wake-up list has at
		// least n of the test's clients blocked in BLPOP. A waiter counted in the queue
		// calls BLPOP just after, from its own goroutine, and the hand-off
		// goes in the order of those calls: a fixed sleep let a loaded
		// machine call B's before R's.
		node := rdb
		if cc, ok := rdb.(*redis.ClusterClient); ok {
			m, err := cc.MasterForKey(ctx, wake)
			must(t, err)
			node = m
		}
		waitBlocked := func(n int) {
			t.Helper()
			deadline := time.Now().Add(5 * time.Second)
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
		waitQueued(2)
		waitBlocked(2) // D and A

		released := time.Now()
		must(t, holder.Release(ctx))
		tk := <-ticket
		if tk == "" {
			return
		}
		take("R") // asks while the lock is reserved for D
		waitQueued(3)
		waitBlocked(2) // A and R; D's BLPOP returned with its ticket
		r, err := rdb.EvalSha(ctx, obtainScript.SHA1(), []string{key, fence}, "d-token", 10000, strconv.FormatInt(gen, 10), tk).Result()
		must(t, err)
		if v, err := parseObtainReply(r); err != nil || !v.acquired {
			t.Fatalf("D claiming with its ticket: %+v, %v", v, err)
		}
		take("B")      // asks while D holds the lock, before the window ends
		waitQueued(3)  // A, R and B; D left the queue when it claimed
		waitBlocked(3) // A, R and B
		// D holds the lock past the end of the window it was reserved in.
		time.Sleep(2*window - time.Since(released))
		r, err = rdb.EvalSha(ctx, releaseScript.SHA1(), []string{key, fence, wake}, "d-token", window.Milliseconds(), "0").Result()
		must(t, err)
		if left, next, err := parseReleaseReply(r); err != nil || left != 0 || next == 0 {
			t.Fatalf("D's release: left %d, ticket %d, %v; want the lock handed on", left, next, err)
		}
		wg.Wait()
		if fmt.Sprint(order) != "[A R B]" {
			t.Fatalf("acquisition order %v, want [A R B]", order)
		}
	})
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
		// Reservations and tickets expire with the hand-off window.
		time.Sleep(300 * time.Millisecond)
		after := keysMatching(t, rdb, "*{"+id+"}*")
		want := slices.Clone(before)
		if fmt.Sprint(after) != fmt.Sprint(want) {
			t.Fatalf("keys after the run: %v, want %v", after, want)
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
		time.Sleep(100 * time.Millisecond)
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
