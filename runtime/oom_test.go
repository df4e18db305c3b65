package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
)

// TestOutOfMemory runs every operation on a private server whose maxmemory
// is 1 byte, so every write command is refused. The scripts that write are
// refused up front with Redis's own OOM error, typed by go-redis, and
// change nothing; a held lock can still be refreshed and released (as
// PEXPIRE and DEL can), also when its release reserves it for a waiter.
func TestOutOfMemory(t *testing.T) {
	srv := redistest.StartServer(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	// A long hand-off window keeps the reservation made under OOM in place
	// until it is checked, however slow the machine.
	c := New(rdb, &Options{HandoffWindow: time.Minute})
	id := tagged(t)
	held, err := c.Obtain(ctx, Key("oom", id, "held"), time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	queued, err := c.Obtain(ctx, Key("oom", id, "queued"), time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A caller of another process queued for the second lock: its release
	// reserves the lock for it (writes of a few bytes).
	if _, err := obtainScriptCall(ctx, rdb, queued.Key(), "waiter", "0"); err != nil {
		t.Fatal(err)
	}
	stock := Key("oom", id, "stock")
	rdb.Set(ctx, stock, 10, 0)
	before, err := rdb.DBSize(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}

	srv.ConfigSet(t, "maxmemory", "1")
	table := MaxTable{Name: "oom" + id, Shards: 2}
	lockKey, state := Key("oom", id, "lock"), Key("oom", id, "state")
	for _, op := range []struct {
		name string
		run  func() error
	}{
		{"Obtain", func() error { return second(c.Obtain(ctx, lockKey, time.Second, &ObtainOptions{NoWait: true})) }},
		{"LockAndSet", func() error {
			return second(c.LockAndSet(ctx, lockKey, time.Second, StateWrite{Key: state, Field: "f", Value: "v", TTL: time.Minute}, &ObtainOptions{NoWait: true}))
		}},
		{"SetState", func() error {
			return held.SetState(ctx, StateWrite{Key: Key("oom", id, "held", "state"), Field: "f", Value: "v", TTL: time.Minute})
		}},
		{"MaxUpdate", func() error { return second(c.Update(ctx, table, "item", 5)) }},
		{"DecrementIfAvailable", func() error { return second(c.DecrementIfAvailable(ctx, stock, 1)) }},
		{"IssueOnce", func() error { return second(c.IssueOnce(ctx, Key("oom", id, "pool"), "u", 3)) }},
		{"IncrWindow", func() error { return incrWindowErr(c.IncrWindow(ctx, Key("oom", id, "hits"), 1, time.Minute)) }},
		{"RunPipelined", func() error {
			cmds, err := c.RunPipelined(ctx, []Call{{Script: decrementScript, Keys: []string{stock}, Args: []any{1}}})
			if err != nil {
				return err
			}
			return cmds[0].Err()
		}},
	} {
		err := op.run()
		if !redis.IsOOMError(err) {
			t.Errorf("%s under OOM: %v, want go-redis's OOM error", op.name, err)
		}
		if errors.Is(err, ErrWrongType) {
			t.Errorf("%s under OOM reports ErrWrongType: %v", op.name, err)
		}
	}
	if err := held.Refresh(ctx, 2*time.Minute); err != nil {
		t.Errorf("Refresh under OOM: %v", err)
	}
	if err := held.Release(ctx); err != nil {
		t.Errorf("Release under OOM: %v", err)
	}
	if err := queued.Release(ctx); err != nil {
		t.Errorf("Release that reserves the lock under OOM: %v", err)
	}
	if v := rdb.HGet(ctx, queued.Key(), "claimant").Val(); v != "waiter" {
		t.Errorf("the release under OOM did not reserve %q for its waiter", queued.Key())
	}
	srv.ConfigSet(t, "maxmemory", "0")
	// held is gone, queued became a reservation (the push to its waiter's
	// wake-up list, a plain write, was refused), and the refused scripts
	// left nothing behind.
	if after := rdb.DBSize(ctx).Val(); after != before-1 {
		t.Errorf("DBSIZE %d after the refused operations, want %d", after, before-1)
	}
	if v := rdb.Get(ctx, stock).Val(); v != "10" {
		t.Errorf("stock %q after a refused decrement, want 10", v)
	}
}

// obtainScriptCall runs obtain.lua as a waiter that will queue.
func obtainScriptCall(ctx context.Context, rdb redis.Scripter, key, token, queued string) (any, error) {
	fence, queue, err := lockKeys(key)
	if err != nil {
		return nil, err
	}
	return rdb.Eval(ctx, obtainScript.src, []string{key, fence, queue}, token, 1000, queued, 60_000, 100).Result()
}
