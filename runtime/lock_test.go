package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestObtainReleaseReentry(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		key := Key("order", tagged(t), "lock")
		l, err := c.Obtain(ctx, key, time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l.Fence() <= 0 || l.Count() != 1 || len(l.Token()) < 20 {
			t.Fatalf("lock fence %d count %d token %q", l.Fence(), l.Count(), l.Token())
		}
		if ttl := rdb.PTTL(ctx, key).Val(); ttl <= 0 || ttl > time.Second {
			t.Fatalf("lock PTTL %v, want within (0, 1s]", ttl)
		}

		other := New(newClient(t, rdb), nil)
		if _, err := other.Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
			t.Fatalf("second owner: %v, want ErrNotObtained", err)
		}

		again, err := c.Obtain(ctx, key, time.Second, &ObtainOptions{Token: l.Token(), NoWait: true})
		if err != nil {
			t.Fatalf("reentry: %v", err)
		}
		if again.Fence() != l.Fence() || again.Count() != 2 {
			t.Fatalf("reentry fence %d count %d, want %d and 2", again.Fence(), again.Count(), l.Fence())
		}
		if err := again.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n := rdb.HGet(ctx, key, "count").Val(); n != "1" {
			t.Fatalf("count after one release = %q, want 1", n)
		}
		if _, err := other.Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
			t.Fatalf("still held once: %v, want ErrNotObtained", err)
		}
		if err := again.Release(ctx); !errors.Is(err, ErrLockLost) {
			t.Fatalf("releasing one entry twice: %v, want ErrLockLost", err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n := rdb.Exists(ctx, key).Val(); n != 0 {
			t.Fatalf("lock key still exists after the last release")
		}
		if err := l.Refresh(ctx, time.Second); !errors.Is(err, ErrLockLost) {
			t.Fatalf("refresh after release: %v, want ErrLockLost", err)
		}
		// The slot's fencing counter has issued the lock's last token.
		if v, _ := rdb.Get(ctx, fencingKey(key)).Int64(); v < l.Fence() {
			t.Fatalf("fence counter %d, want at least %d", v, l.Fence())
		}
		next, err := other.Obtain(ctx, key, time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		if next.Fence() <= l.Fence() {
			t.Fatalf("next fence %d, want above %d", next.Fence(), l.Fence())
		}
		if err := next.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// TestExpiryTakeover lets a lock expire under its holder: the new holder
// gets it, and the stale holder's Release, Refresh and SetState all fail
// with ErrLockLost and change nothing.
func TestExpiryTakeover(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		id := tagged(t)
		key, state := Key("job", id, "lock"), Key("job", id, "state")
		stale, err := New(rdb, nil).LockAndSet(ctx, key, 30*time.Millisecond,
			StateWrite{Key: state, Field: "step", Value: "one", TTL: time.Minute}, nil)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(60 * time.Millisecond)
		fresh, err := New(newClient(t, rdb), nil).LockAndSet(ctx, key, time.Minute,
			StateWrite{Key: state, Field: "step", Value: "two", TTL: time.Minute}, &ObtainOptions{NoWait: true})
		if err != nil {
			t.Fatalf("taking over an expired lock: %v", err)
		}
		if fresh.Fence() <= stale.Fence() {
			t.Fatalf("fence %d after %d", fresh.Fence(), stale.Fence())
		}
		before := snapshot(t, rdb, key, state, fencingKey(key))
		for name, err := range map[string]error{
			"Release":  stale.Release(ctx),
			"Refresh":  stale.Refresh(ctx, time.Minute),
			"SetState": stale.SetState(ctx, StateWrite{Key: state, Field: "step", Value: "stale", TTL: time.Minute}),
		} {
			if !errors.Is(err, ErrLockLost) {
				t.Errorf("stale %s: %v, want ErrLockLost", name, err)
			}
		}
		// Release marked the stale entry released, so test the Lua-side
		// refusals once more on a handle that has not been released.
		ghost := &Lock{c: New(rdb, nil), key: key, fenceKey: fencingKey(key), queueKey: WakeKey(key), token: stale.Token(), fence: stale.Fence(), ttl: time.Minute}
		if err := ghost.Refresh(ctx, time.Minute); !errors.Is(err, ErrLockLost) {
			t.Errorf("stale token refresh: %v, want ErrLockLost", err)
		}
		if err := ghost.SetState(ctx, StateWrite{Key: state, Field: "step", Value: "stale", TTL: time.Minute}); !errors.Is(err, ErrLockLost) {
			t.Errorf("stale token SetState: %v, want ErrLockLost", err)
		}
		if err := ghost.Release(ctx); !errors.Is(err, ErrLockLost) {
			t.Errorf("stale token Release: %v, want ErrLockLost", err)
		}
		if after := snapshot(t, rdb, key, state, fencingKey(key)); !equal(before, after) {
			t.Fatalf("a stale holder changed the keys")
		}
		if v := rdb.HGet(ctx, state, "step").Val(); v != "two" {
			t.Fatalf("state step = %q, want two", v)
		}
		if err := fresh.SetState(ctx, StateWrite{Key: state, Field: "step", Value: "three", TTL: time.Minute}); err != nil {
			t.Fatalf("new holder's update: %v", err)
		}
		if err := fresh.Release(ctx); err != nil {
			t.Fatalf("new holder's release: %v", err)
		}
	})
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFencingMonotonic takes one lock 10,000 times, releasing, re-entering
// or letting it expire, and checks every fencing token exceeds the last.
// Then it loses the fencing counter (as a failover without persistence
// would) and checks that the state guard refuses the restarted tokens.
func TestFencingMonotonic(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		id := tagged(t)
		key, state := Key("fence", id, "lock"), Key("fence", id, "state")
		var last int64
		expiries := 0
		for i := range 10_000 {
			ttl := time.Second
			expire := i%97 == 0
			if expire {
				ttl = 2 * time.Millisecond
			}
			l, err := c.Obtain(ctx, key, ttl, nil)
			if err != nil {
				t.Fatalf("acquisition %d: %v", i, err)
			}
			if l.Fence() <= last {
				t.Fatalf("acquisition %d: fence %d after %d", i, l.Fence(), last)
			}
			last = l.Fence()
			if i%10 == 0 && !expire {
				if err := l.SetState(ctx, StateWrite{Key: state, Field: "n", Value: "x", TTL: time.Minute}); err != nil {
					t.Fatalf("acquisition %d: SetState: %v", i, err)
				}
			}
			if i%50 == 0 && !expire {
				re, err := c.Obtain(ctx, key, ttl, &ObtainOptions{Token: l.Token(), NoWait: true})
				if err != nil || re.Fence() != l.Fence() {
					t.Fatalf("reentry: %v, fence %v", err, re)
				}
				if err := re.Release(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if expire {
				expiries++
				time.Sleep(4 * time.Millisecond)
				continue
			}
			if err := l.Release(ctx); err != nil {
				t.Fatalf("acquisition %d: release: %v", i, err)
			}
		}
		if expiries == 0 {
			t.Fatal("no expiries exercised")
		}

		rdb.Del(ctx, fencingKey(key))
		l, err := c.Obtain(ctx, key, time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l.Fence() >= last {
			t.Fatalf("restarted fence %d, want below %d", l.Fence(), last)
		}
		before := snapshot(t, rdb, state)
		if err := l.SetState(ctx, StateWrite{Key: state, Field: "n", Value: "stale", TTL: time.Minute}); !errors.Is(err, ErrStaleFence) {
			t.Fatalf("stale token: %v, want ErrStaleFence", err)
		}
		if !equal(before, snapshot(t, rdb, state)) {
			t.Fatal("a stale token changed the state")
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// TestBadInputs checks that bad arguments, wrong types and cancelled
// contexts produce typed errors and write nothing.
func TestBadInputs(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		id := tagged(t)
		key := Key("bad", id, "lock")
		state := Key("bad", id, "state")
		fence := fencingKey(key)
		fenceBefore := snapshot(t, rdb, fence)
		write := StateWrite{Key: state, Field: "f", Value: "v", TTL: time.Minute}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()

		for _, c2 := range []struct {
			name string
			err  error
			want error
		}{
			{"empty key", second(c.Obtain(ctx, "", time.Second, nil)), ErrInvalidArgument},
			{"zero TTL", second(c.Obtain(ctx, key, 0, nil)), ErrInvalidArgument},
			{"negative TTL", second(c.Obtain(ctx, key, -time.Second, nil)), ErrInvalidArgument},
			{"TTL below 1ms", second(c.Obtain(ctx, key, 999*time.Microsecond, nil)), ErrInvalidArgument},
			{"untagged key", second(c.Obtain(ctx, "bad-untagged-"+id, time.Second, nil)), ErrCrossSlot},
			{"cancelled", second(c.Obtain(cancelled, key, time.Second, nil)), context.Canceled},
			{"cancelled not obtained", second(c.Obtain(cancelled, key, time.Second, nil)), ErrNotObtained},
			{"state other slot", second(c.LockAndSet(ctx, key, time.Second, StateWrite{Key: Key("bad", id+"x", "state"), Field: "f", TTL: time.Minute}, nil)), ErrCrossSlot},
			{"state TTL", second(c.LockAndSet(ctx, key, time.Second, StateWrite{Key: state, Field: "f"}, nil)), ErrInvalidArgument},
			{"state reserved field", second(c.LockAndSet(ctx, key, time.Second, StateWrite{Key: state, Field: "__fence", TTL: time.Minute}, nil)), ErrInvalidArgument},
			{"lock and set cancelled", second(c.LockAndSet(cancelled, key, time.Second, write, nil)), context.Canceled},
		} {
			if !errors.Is(c2.err, c2.want) {
				t.Errorf("%s: %v, want %v", c2.name, c2.err, c2.want)
			}
		}
		if n := rdb.Exists(ctx, key, state).Val(); n != 0 {
			t.Fatalf("%d keys written by rejected calls", n)
		}
		if !equal(fenceBefore, snapshot(t, rdb, fence)) {
			t.Fatal("rejected calls moved the fencing counter")
		}
		if n := rdb.Exists(ctx, "bad-untagged-"+id).Val(); n != 0 {
			t.Fatal("untagged key written")
		}

		// A held lock refuses bad refreshes and cancelled calls, keeping its TTL.
		l, err := c.Obtain(ctx, key, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, rdb, key, fence)
		if err := l.Refresh(ctx, 0); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Refresh(0): %v", err)
		}
		if err := l.Refresh(cancelled, time.Second); !errors.Is(err, context.Canceled) {
			t.Errorf("Refresh cancelled: %v", err)
		}
		if err := l.Release(cancelled); !errors.Is(err, context.Canceled) {
			t.Errorf("Release cancelled: %v", err)
		}
		if err := l.SetState(cancelled, write); !errors.Is(err, context.Canceled) {
			t.Errorf("SetState cancelled: %v", err)
		}
		if _, err := l.KeepAlive(ctx, &KeepAliveOptions{Interval: -1}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("KeepAlive negative interval: %v", err)
		}
		if !equal(before, snapshot(t, rdb, key, fence)) {
			t.Fatal("rejected calls changed the lock")
		}
		if ttl := rdb.PTTL(ctx, key).Val(); ttl < 50*time.Second {
			t.Fatalf("lock TTL %v changed by a rejected refresh", ttl)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatalf("release after a cancelled release: %v", err)
		}
	})
}

func second[T any](_ T, err error) error { return err }

// TestWrongTypeLock puts values of other types at the lock, its fencing
// counter and the state key: every call fails with ErrWrongType and nothing
// changes.
func TestWrongTypeLock(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		for _, tc := range []struct {
			name  string
			setup func(key, fence, state string)
		}{
			{"lock is a string", func(k, _, _ string) { rdb.Set(ctx, k, "x", time.Minute) }},
			{"lock is a list", func(k, _, _ string) { rdb.RPush(ctx, k, "x") }},
			{"lock is a foreign hash", func(k, _, _ string) { rdb.HSet(ctx, k, "a", "b") }},
			{"fence is a set", func(_, f, _ string) { rdb.Del(ctx, f); rdb.SAdd(ctx, f, "x") }},
			{"fence is not a number", func(_, f, _ string) { rdb.Set(ctx, f, "abc", time.Minute) }},
			{"state is a string", func(_, _, s string) { rdb.Set(ctx, s, "x", time.Minute) }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id := tagged(t)
				key, state := Key("wt", id, "lock"), Key("wt", id, "state")
				// The slot's fencing counter is shared: put it back.
				fence := fencingKey(key)
				saved := rdb.Get(ctx, fence).Val()
				t.Cleanup(func() {
					rdb.Del(ctx, key, fence, state)
					if saved != "" {
						rdb.Set(ctx, fence, saved, 0)
					}
				})
				tc.setup(key, fence, state)
				before := snapshot(t, rdb, key, fence, state)
				_, err := c.LockAndSet(ctx, key, time.Second, StateWrite{Key: state, Field: "f", Value: "v", TTL: time.Minute}, &ObtainOptions{NoWait: true})
				if !errors.Is(err, ErrWrongType) {
					t.Errorf("LockAndSet: %v, want ErrWrongType", err)
				}
				if tc.name != "state is a string" {
					if _, err := c.Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrWrongType) {
						t.Errorf("Obtain: %v, want ErrWrongType", err)
					}
				}
				if !equal(before, snapshot(t, rdb, key, fence, state)) {
					t.Fatal("a call on a wrong-type key wrote to Redis")
				}
			})
		}
	})
}

// TestKeepAlive: a watchdog keeps the lock over four of its leases, and its
// context open; Release stops it and cancels the context, and nothing
// renews after. A watchdog that no renewal got through for a whole lease
// rightly reports the lock lost, as it did with a 300ms lease on a machine
// at load 10-25: a run whose checks fail once the holder's Deadline has
// passed is inconclusive, and the test runs again with a lease twice as
// long; one that fails before fails the test.
func TestKeepAlive(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		retryConclusive(t, "lease", 300*time.Millisecond, 4*time.Second, func(attempt int, ttl time.Duration) bool {
			return keepAlive(t, rdb, Key("ka", fmt.Sprintf("%s-%d", tagged(t), attempt), "lock"), ttl)
		})
	})
}

// keepAlive is one run of TestKeepAlive with a lease of ttl; it returns
// false when the run was inconclusive.
func keepAlive(t *testing.T, rdb redis.UniversalClient, key string, ttl time.Duration) bool {
	ctx := context.Background()
	hooks := &recordingHooks{}
	c := New(rdb, &Options{Hooks: hooks})
	start := time.Now()
	l, err := c.Obtain(ctx, key, ttl, nil)
	if err != nil {
		t.Fatal(err)
	}
	// When Redis would have dropped the lock without renewals.
	first, err := rdb.PExpireTime(ctx, key).Result()
	if err != nil || first <= 0 {
		t.Fatalf("PEXPIRETIME: %v %v", first, err)
	}
	kctx, err := l.KeepAlive(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.KeepAlive(ctx, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("second watchdog: %v", err)
	}
	time.Sleep(4*ttl - time.Since(start))
	var failure string
	if kctx.Err() != nil {
		failure = fmt.Sprintf("watchdog context ended: %v", context.Cause(kctx))
	} else if o, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
		if o != nil {
			o.Release(ctx)
		}
		failure = fmt.Sprintf("kept-alive lock taken: %v", err)
	} else if at, err := rdb.PExpireTime(ctx, key).Result(); err != nil || at <= first {
		failure = fmt.Sprintf("PEXPIRETIME %v (%v), want past the first lease's %v", at, err, first)
	} else if !l.Deadline().After(time.Now()) {
		failure = "deadline not extended by renewals"
	}
	if failure != "" {
		// Past the lease the holder knows of, the lock may be gone, rightly;
		// before it, Redis must hold it.
		if failed := time.Now(); hooks.lostPastDeadline(l, failed) {
			t.Logf("inconclusive, %v past the deadline: %s", failed.Sub(l.Deadline()), failure)
			l.Release(ctx)
			return false
		}
		t.Fatal(failure)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if kctx.Err() == nil {
		t.Fatal("Release did not cancel the watchdog context")
	}
	if !errors.Is(context.Cause(kctx), context.Canceled) {
		t.Fatalf("cause after Release: %v", context.Cause(kctx))
	}
	// Nothing renews after the release: a new owner's lock keeps its own
	// TTL and the old token never appears again.
	n, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true})
	if err != nil {
		t.Fatalf("obtain after release: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if owner := rdb.HGet(ctx, key, "owner").Val(); owner != n.Token() {
		t.Fatalf("owner %q, want the new owner", owner)
	}
	if err := n.Release(ctx); err != nil {
		t.Fatal(err)
	}
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	if len(hooks.lost) != 0 {
		t.Fatalf("lost reported: %v", hooks.lost)
	}
	return true
}

func TestKeepAliveDetectsLoss(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		hooks := &recordingHooks{}
		c := New(rdb, &Options{Hooks: hooks})
		key := Key("kal", tagged(t), "lock")
		l, err := c.Obtain(ctx, key, 150*time.Millisecond, nil)
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := l.KeepAlive(ctx, &KeepAliveOptions{Interval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		rdb.Del(ctx, key) // an operator, or an expiry during a stall
		thief, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The watchdog notices at its next renewal, 20ms on, or when the
		// lease runs out, 150ms on; past ten seconds it never will.
		select {
		case <-kctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("watchdog did not notice the lost lock")
		}
		if !errors.Is(context.Cause(kctx), ErrLockLost) {
			t.Fatalf("cause %v, want ErrLockLost", context.Cause(kctx))
		}
		hooks.mu.Lock()
		lost := len(hooks.lost)
		hooks.mu.Unlock()
		if lost != 1 {
			t.Fatalf("LockLost reported %d times", lost)
		}
		if err := l.Release(ctx); !errors.Is(err, ErrLockLost) {
			t.Fatalf("release of a lost lock: %v", err)
		}
		if ttl := rdb.PTTL(ctx, key).Val(); ttl < 50*time.Second {
			t.Fatalf("thief's TTL %v was changed", ttl)
		}
		if err := thief.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// TestKeepAliveLeaseRunsOut cuts the watchdog off from Redis once a renewal
// got through (its client is closed, standing in for a network partition):
// the watchdog must end its context with ErrLockLost on its timer at the
// lease deadline, which is before Redis lets the lock go. A run in which
// the machine stalled past what the checks need (the lock gone before its
// final expiry was read, or the watchdog's timer a quarter of the lease
// late) is inconclusive, and the test runs again with a lease twice as
// long. With a 200ms lease the expiry was read after the lock had gone.
func TestKeepAliveLeaseRunsOut(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		retryConclusive(t, "lease", time.Second, 8*time.Second, func(attempt int, ttl time.Duration) bool {
			return keepAliveLeaseRunsOut(t, rdb, Key("kar", fmt.Sprintf("%s-%d", tagged(t), attempt), "lock"), ttl)
		})
	})
}

// keepAliveLeaseRunsOut is one run of TestKeepAliveLeaseRunsOut with a
// lease of ttl; it returns false when the run was inconclusive.
func keepAliveLeaseRunsOut(t *testing.T, rdb redis.UniversalClient, key string, ttl time.Duration) bool {
	ctx := context.Background()
	observer := newClient(t, rdb)
	// A plain client on the master that owns the key, closed to cut the
	// watchdog off: every renewal then fails at once.
	part := redis.NewClient(&redis.Options{Addr: masterFor(t, rdb, key), MaxRetries: -1})
	t.Cleanup(func() { part.Close() })
	hooks := &recordingHooks{}
	l, err := New(part, &Options{Hooks: hooks}).Obtain(ctx, key, ttl, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := observer.PExpireTime(ctx, key).Result()
	if err != nil || first <= 0 {
		t.Fatalf("PEXPIRETIME: %v %v", first, err)
	}
	kctx, err := l.KeepAlive(ctx, &KeepAliveOptions{Interval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// A renewal got through: Redis's expiry moved.
	renewed := first
	for deadline := time.Now().Add(10 * time.Second); renewed <= first; {
		if time.Now().After(deadline) {
			t.Fatalf("no renewal reached Redis in 10s: PEXPIRETIME %v, first %v", renewed, first)
		}
		time.Sleep(5 * time.Millisecond)
		asked := time.Now()
		if renewed, err = observer.PExpireTime(ctx, key).Result(); err != nil {
			t.Fatal(err)
		}
		if renewed < 0 {
			if asked.UnixMilli() < int64(first/time.Millisecond) {
				t.Fatalf("PEXPIRETIME %v before the expiry %v the lock was obtained with", renewed, first)
			}
			return false // the first lease ran out before a renewal was seen
		}
	}
	part.Close()
	// The expiry Redis holds now is final: no renewal gets through. It is
	// no earlier than the one seen.
	asked := time.Now()
	expireAt, err := observer.PExpireTime(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	if expireAt <= 0 {
		if asked.UnixMilli() < int64(renewed/time.Millisecond) {
			t.Fatalf("PEXPIRETIME %v before the expiry %v a renewal had set", expireAt, renewed)
		}
		return false
	}
	// The context ends when the watchdog's timer fires at the deadline;
	// past ten seconds it never will.
	select {
	case <-kctx.Done():
	case <-time.After(time.Until(l.Deadline()) + 10*time.Second):
		t.Fatalf("the watchdog's context still open 10s after the deadline")
	}
	if !errors.Is(context.Cause(kctx), ErrLockLost) {
		t.Fatalf("cause %v, want ErrLockLost", context.Cause(kctx))
	}
	// Redis still held the lock at the holder's deadline: compare with
	// the absolute expiry Redis set (same machine, same clock).
	if dl := l.Deadline(); dl.UnixMilli() >= int64(expireAt/time.Millisecond) {
		t.Fatalf("deadline %d ms, Redis expiry %d ms", dl.UnixMilli(), expireAt/time.Millisecond)
	}
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	if hooks.renewFail == 0 || len(hooks.lost) != 1 {
		t.Fatalf("renew failures %d, lost %d", hooks.renewFail, len(hooks.lost))
	}
	// The watchdog ends the context on its timer at the deadline, not on
	// a later event. A timer that fired a quarter of the lease late (the
	// machine did not run it) says nothing either way.
	if late := hooks.lostAt[0].Sub(l.Deadline()); late > ttl/4 {
		t.Logf("inconclusive: the watchdog reported the loss %v after the deadline", late)
		return false
	}
	return true
}

// masterFor returns the address of the server that holds key.
func masterFor(t *testing.T, rdb redis.UniversalClient, key string) string {
	t.Helper()
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return rdb.(*redis.Client).Options().Addr
	}
	n, err := cc.MasterForKey(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return n.Options().Addr
}

// TestKeepAliveMaxHold: the watchdog keeps the lock up to its maximum
// hold, then ends its context with ErrMaxHold and renews no more. The lease
// is shorter than the maximum hold, so the watchdog must renew it at least
// once to reach the maximum. A watchdog that no renewal got through for a
// whole lease rightly reports the lock lost instead, past its Deadline (a
// 60ms lease was lost so on a loaded machine under -race): that run is
// inconclusive, and the test runs again with a lease twice as long.
func TestKeepAliveMaxHold(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		retryConclusive(t, "lease", 400*time.Millisecond, 4*time.Second, func(attempt int, ttl time.Duration) bool {
			return keepAliveMaxHold(t, rdb, Key("kam", fmt.Sprintf("%s-%d", tagged(t), attempt), "lock"), ttl, 3*ttl/2)
		})
	})
}

// keepAliveMaxHold is one run of TestKeepAliveMaxHold; it returns false
// when the run was inconclusive.
func keepAliveMaxHold(t *testing.T, rdb redis.UniversalClient, key string, ttl, maxHold time.Duration) bool {
	ctx := context.Background()
	hooks := &recordingHooks{}
	l, err := New(rdb, &Options{Hooks: hooks}).Obtain(ctx, key, ttl, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	kctx, err := l.KeepAlive(ctx, &KeepAliveOptions{MaxHold: maxHold})
	if err != nil {
		t.Fatal(err)
	}
	// A watchdog that never stops is caught by go test's -timeout,
	// whose stack dump names this test.
	<-kctx.Done()
	held := time.Since(start)
	if cause := context.Cause(kctx); !errors.Is(cause, ErrMaxHold) {
		if errors.Is(cause, ErrLockLost) && hooks.lostPastDeadline(l, time.Now()) {
			t.Logf("inconclusive: the lock was lost after %v, with %v", held, cause)
			return false
		}
		t.Fatalf("context ended after %v with cause %v, want ErrMaxHold", held, cause)
	}
	// The maximum is counted from the KeepAlive call, which came after
	// start: it cannot end sooner.
	if held < maxHold {
		t.Fatalf("context ended after %v, before the maximum hold of %v", held, maxHold)
	}
	// No renewals after the maximum: the lock expires on its own, at
	// most one lease after the last renewal.
	time.Sleep(ttl + 100*time.Millisecond)
	if n := rdb.Exists(ctx, key).Val(); n != 0 {
		t.Fatal("lock renewed past its maximum hold time")
	}
	return true
}

// TestGateOnePollerPerKey has many goroutines of one Client contend for a
// key held by another client: at most one of them has a script call in
// flight at any time, and all get the lock in turn.
func TestGateOnePollerPerKey(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("gate", tagged(t), "lock")
		conn := newClient(t, rdb)
		var inflight, peak atomic.Int32
		conn.AddHook(inflightHook{&inflight, &peak})
		c := New(conn, nil)

		holder, err := New(rdb, nil).Obtain(ctx, key, time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var got atomic.Int32
		for range 20 {
			wg.Go(func() {
				l, err := c.Obtain(ctx, key, time.Second, nil)
				if err != nil {
					t.Error(err)
					return
				}
				got.Add(1)
				time.Sleep(time.Millisecond)
				if err := l.Release(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		time.Sleep(100 * time.Millisecond)
		if err := holder.Release(ctx); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if got.Load() != 20 {
			t.Fatalf("%d of 20 obtained", got.Load())
		}
		if p := peak.Load(); p != 1 {
			t.Fatalf("%d attempts in flight at once, want 1 (the poller)", p)
		}
	})
}

// inflightHook tracks concurrent obtain attempts (EVALSHA/EVAL) of a client.
type inflightHook struct{ now, peak *atomic.Int32 }

func (inflightHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (inflightHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h inflightHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if len(cmd.Args()) > 1 && (cmd.Name() == "evalsha" || cmd.Name() == "eval") &&
			(cmd.Args()[1] == obtainScript.sha || cmd.Args()[1] == obtainScript.src) {
			n := h.now.Add(1)
			for {
				p := h.peak.Load()
				if n <= p || h.peak.CompareAndSwap(p, n) {
					break
				}
			}
			defer h.now.Add(-1)
		}
		return next(ctx, cmd)
	}
}

// TestObtainWaitsForRelease: a waiting Obtain ends with its context, and
// one that waits gets the lock once the holder releases it, long before the
// holder's lease of a minute would have run out.
func TestObtainWaitsForRelease(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("wait", tagged(t), "lock")
		holder, err := New(rdb, nil).Obtain(ctx, key, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		hooks := &recordingHooks{}
		waiter := New(newClient(t, rdb), &Options{Hooks: hooks})
		contended := func() int {
			hooks.mu.Lock()
			defer hooks.mu.Unlock()
			return hooks.contended
		}

		// A deadline ends the wait with ErrNotObtained and the context's error.
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, err := waiter.Obtain(short, key, time.Second, nil); !errors.Is(err, ErrNotObtained) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("deadline: %v", err)
		}

		seen := contended()
		done := make(chan error, 1)
		inBackground(t, func(bg context.Context) {
			wctx, cancel := context.WithTimeout(bg, 30*time.Second)
			defer cancel()
			l, err := waiter.Obtain(wctx, key, time.Second, nil)
			if err == nil {
				err = l.Release(ctx)
			}
			done <- err
		})
		// The holder releases once the waiter found the lock held.
		for deadline := time.Now().Add(10 * time.Second); contended() == seen; {
			if time.Now().After(deadline) {
				t.Fatal("the waiter never found the lock held")
			}
			time.Sleep(time.Millisecond)
		}
		if err := holder.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("waiting for the release: %v", err)
		}
		hooks.mu.Lock()
		defer hooks.mu.Unlock()
		if hooks.obtains != 2 || hooks.attempts <= hooks.obtains {
			t.Fatalf("hooks: %d obtains, %d attempts, %d contended", hooks.obtains, hooks.attempts, hooks.contended)
		}
	})
}

// TestReleaseWakesWaiterOfAnotherClient gives the waiter of another Client
// a backoff of a minute under a holder whose lease is a minute: without a
// wake-up its next attempt after the first, which found the lock held,
// comes no sooner than 30 s later (half its wait bound, which the holder's
// lease caps). It must get the lock before its 20 s deadline, which only
// the release's wake-up through Redis can explain, in two attempts: it
// queued, then claimed the hand-off. The queue and the wake-up list are
// gone once it released.
func TestReleaseWakesWaiterOfAnotherClient(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("wake", tagged(t), "lock")
		// The releaser's hand-off window of a minute keeps the wake-up and
		// the reservation however late the waiter reaches its BLPOP.
		holder, err := New(rdb, &Options{HandoffWindow: time.Minute}).Obtain(ctx, key, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		hooks := &recordingHooks{}
		waiter := New(newClient(t, rdb), &Options{MinBackoff: time.Minute, MaxBackoff: time.Minute, Hooks: hooks})
		done := make(chan error, 1)
		inBackground(t, func(bg context.Context) {
			wctx, cancel := context.WithTimeout(bg, 20*time.Second)
			defer cancel()
			l, err := waiter.Obtain(wctx, key, time.Second, nil)
			if err == nil {
				err = l.Release(ctx)
			}
			done <- err
		})
		waitQueued(t, rdb, key, 1) // the waiter's first attempt found the lock held
		if err := holder.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("the release did not wake the waiter: %v", err)
		}
		hooks.mu.Lock()
		attempts := hooks.attempts
		hooks.mu.Unlock()
		if attempts != 2 {
			t.Fatalf("the waiter made %d attempts, want 2 (queue, then claim the hand-off)", attempts)
		}
		if left := keysMatching(t, rdb, key+"*"); len(left) != 0 {
			t.Fatalf("lock keys left besides the fencing counter: %v", left)
		}
	})
}

// TestWrongTypeWakeKey puts a string at the lock's wake-up queue: the waiter's
// attempt reports ErrWrongType, and the holder's release, which must hand
// the lock to the queue's first caller, refuses before deleting anything.
func TestWrongTypeWakeKey(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("wtw", tagged(t), "lock")
		wake := WakeKey(key)
		t.Cleanup(func() { rdb.Del(ctx, key, wake) })
		holder, err := New(rdb, nil).Obtain(ctx, key, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		rdb.Set(ctx, wake, "x", time.Minute)
		if _, err := New(newClient(t, rdb), nil).Obtain(ctx, key, time.Second, nil); !errors.Is(err, ErrWrongType) {
			t.Fatalf("waiting on a string: %v, want ErrWrongType", err)
		}
		before := snapshot(t, rdb, key, wake)
		if err := holder.Release(ctx); !errors.Is(err, ErrWrongType) {
			t.Fatalf("release: %v, want ErrWrongType", err)
		}
		if !equal(before, snapshot(t, rdb, key, wake)) {
			t.Fatal("a refused release wrote to Redis")
		}
		rdb.Del(ctx, wake)
		if err := holder.Release(ctx); err != nil {
			t.Fatalf("release once the key is fixed: %v", err)
		}
	})
}

// TestReentryPastLocalPoller re-enters a lock while another goroutine of
// the same Client polls for it: the owner must not queue behind that poller.
func TestReentryPastLocalPoller(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		key := Key("reenter", tagged(t), "lock")
		l, err := c.Obtain(ctx, key, 10*time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		waiterDone := make(chan error, 1)
		go func() {
			w, err := c.Obtain(ctx, key, 10*time.Second, nil)
			if err == nil {
				err = w.Release(ctx)
			}
			waiterDone <- err
		}()
		waitQueued(t, rdb, key, 1) // the waiter is polling
		// Behind the poller the re-entry would wait for the lock's release,
		// which never comes: the holder is the one re-entering.
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		again, err := c.Obtain(rctx, key, 10*time.Second, &ObtainOptions{Token: l.Token()})
		if err != nil {
			t.Fatalf("reentry behind a local poller: %v", err)
		}
		if again.Count() != 2 {
			t.Fatalf("count %d", again.Count())
		}
		must(t, again.Release(ctx))
		must(t, l.Release(ctx))
		select {
		case err := <-waiterDone:
			must(t, err)
		case <-time.After(5 * time.Second):
			t.Fatal("waiter did not get the lock after both releases")
		}
	})
}
