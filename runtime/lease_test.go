package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestLeaseNeverShrinks re-enters a lock with shorter and longer TTLs and
// refreshes it with a shorter one: the lease Redis holds only ever grows,
// another owner cannot take the lock while the first entry's deadline
// lasts, and every entry's Deadline reports the one lease the server holds.
func TestLeaseNeverShrinks(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		other := New(newClient(t, rdb), nil)
		id := tagged(t)
		key, state := Key("lease", id, "lock"), Key("lease", id, "state")
		outer, err := c.Obtain(ctx, key, 10*time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer outer.Release(ctx)
		inner, err := c.Obtain(ctx, key, 100*time.Millisecond, &ObtainOptions{Token: outer.Token()})
		if err != nil {
			t.Fatal(err)
		}
		// The cuts these checks catch leave 100ms or 50ms of a 10s lease;
		// the bounds leave seconds for a loaded machine's round trips.
		if pttl := rdb.PTTL(ctx, key).Val(); pttl < 5*time.Second {
			t.Fatalf("re-entry with 100ms cut the lease to %v", pttl)
		}
		if err := inner.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := outer.Refresh(ctx, 50*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if pttl := rdb.PTTL(ctx, key).Val(); pttl < 5*time.Second {
			t.Fatalf("refresh with 50ms cut the lease to %v", pttl)
		}
		time.Sleep(300 * time.Millisecond)
		if time.Until(outer.Deadline()) < 5*time.Second {
			t.Fatalf("outer deadline %v away, want about 9.6s", time.Until(outer.Deadline()))
		}
		if l, err := other.Obtain(ctx, key, time.Second, &ObtainOptions{NoWait: true}); !errors.Is(err, ErrNotObtained) {
			if l != nil {
				l.Release(ctx)
			}
			t.Fatalf("another owner while the outer entry's deadline lasts: %v, want ErrNotObtained", err)
		}
		checkDeadline(t, rdb, key, outer)

		// A longer re-entry extends the lease of every entry.
		longer, err := c.Obtain(ctx, key, 30*time.Second, &ObtainOptions{Token: outer.Token()})
		if err != nil {
			t.Fatal(err)
		}
		checkDeadline(t, rdb, key, outer, longer)
		if !outer.Deadline().Equal(longer.Deadline()) {
			t.Fatalf("entries of one lease report %v and %v", outer.Deadline(), longer.Deadline())
		}
		// A refresh through the outer entry with its own TTL keeps it, and
		// so does a LockAndSet re-entry with a short TTL.
		if err := outer.Refresh(ctx, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		checkDeadline(t, rdb, key, outer, longer)
		set, err := c.LockAndSet(ctx, key, 50*time.Millisecond, StateWrite{Key: state, Field: "f", Value: "v", TTL: time.Minute}, &ObtainOptions{Token: outer.Token()})
		if err != nil {
			t.Fatal(err)
		}
		if pttl := rdb.PTTL(ctx, key).Val(); pttl < 20*time.Second {
			t.Fatalf("LockAndSet re-entry with 50ms cut the lease to %v", pttl)
		}
		checkDeadline(t, rdb, key, outer, longer, set)
		if err := set.Release(ctx); err != nil {
			t.Fatal(err)
		}
		rdb.Del(ctx, state)
		if err := longer.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// checkDeadline asserts that each entry's Deadline is no later than the
// lease Redis holds for key and at most 5s before it (the drift margin is
// 1% of the lease, the rest is for round trips on a loaded machine; the
// stale deadlines it catches are 10s or 20s short).
func checkDeadline(t *testing.T, rdb redis.UniversalClient, key string, entries ...*Lock) {
	t.Helper()
	pttl := rdb.PTTL(context.Background(), key).Val()
	expiry := time.Now().Add(pttl)
	for i, l := range entries {
		d := l.Deadline()
		if d.After(expiry) {
			t.Errorf("entry %d: deadline %v after the server's expiry", i, d.Sub(expiry))
		}
		if expiry.Sub(d) > 5*time.Second {
			t.Errorf("entry %d: deadline %v before the server's expiry (PTTL %v)", i, expiry.Sub(d), pttl)
		}
	}
}
