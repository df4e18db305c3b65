package lockcheck_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/runtime"
)

// The races SL1302 and SL1304 report, replayed against real Redis with two
// clients whose steps run in a fixed order: each step is one blocking
// command, so the order in the test is the order Redis sees. A lock whose
// lease runs out is made to expire at once with PEXPIREAT in the past, the
// way a holder paused past its TTL (GC, a slow call) finds it.

// servers runs f once on the standalone server and once on the cluster,
// with two independent clients A and B.
func servers(t *testing.T, f func(t *testing.T, a, b redis.UniversalClient)) {
	t.Run("standalone", func(t *testing.T) { f(t, redistest.Standalone(t), redistest.Standalone(t)) })
	t.Run("cluster", func(t *testing.T) { f(t, redistest.Cluster(t), redistest.Cluster(t)) })
}

var ctx = context.Background()

// leaseRunsOut expires key now.
func leaseRunsOut(t *testing.T, rdb redis.UniversalClient, key string) {
	t.Helper()
	if err := rdb.PExpireAt(ctx, key, time.UnixMilli(1)).Err(); err != nil {
		t.Fatal(err)
	}
	if n := rdb.Exists(ctx, key).Val(); n != 0 {
		t.Fatalf("%s still exists after PEXPIREAT in the past", key)
	}
}

// must returns a command's value, failing the test on an error.
func must[T any](t *testing.T, result func() (T, error)) T {
	t.Helper()
	v, err := result()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestReleaseRace: SL1302's two shapes (testdata/lockcheck/release.go
// bareDel and getCompareDel) delete the next owner's lock; runtime's
// Lock.Release and a token-checked script do not.
func TestReleaseRace(t *testing.T) {
	servers(t, func(t *testing.T, a, b redis.UniversalClient) {
		p := redistest.Prefix(t)

		t.Run("DEL without owner check", func(t *testing.T) {
			key := p + "order:{1}:lock"
			if !must(t, a.SetNX(ctx, key, "A", 10*time.Second).Result) {
				t.Fatal("A did not get the free lock")
			}
			leaseRunsOut(t, a, key)
			if !must(t, b.SetNX(ctx, key, "B", 10*time.Second).Result) {
				t.Fatal("B did not get the expired lock")
			}
			must(t, a.Del(ctx, key).Result) // reported: SL1302 (A's deferred release)
			if err := b.Get(ctx, key).Err(); !errors.Is(err, redis.Nil) {
				t.Fatalf("B's lock survived A's DEL (err %v): the race did not happen", err)
			}
			if !must(t, a.SetNX(ctx, key, "C", 10*time.Second).Result) {
				t.Fatal("a third owner could not take the lock B still believes it holds")
			}
		})

		t.Run("GET compare DEL", func(t *testing.T) {
			key := p + "order:{2}:lock"
			if !must(t, a.SetNX(ctx, key, "A", 10*time.Second).Result) {
				t.Fatal("A did not get the free lock")
			}
			owner := must(t, a.Get(ctx, key).Result)
			leaseRunsOut(t, a, key)
			if !must(t, b.SetNX(ctx, key, "B", 10*time.Second).Result) {
				t.Fatal("B did not get the expired lock")
			}
			if owner == "A" {
				must(t, a.Del(ctx, key).Result) // reported: SL1302
			}
			if err := b.Get(ctx, key).Err(); !errors.Is(err, redis.Nil) {
				t.Fatalf("B's lock survived A's checked DEL (err %v): the race did not happen", err)
			}
		})

		t.Run("runtime Lock.Release", func(t *testing.T) {
			key := runtime.Key(p+"order", "3", "lock")
			once := &runtime.ObtainOptions{NoWait: true}
			la, err := runtime.New(a, nil).Obtain(ctx, key, 10*time.Second, once)
			if err != nil {
				t.Fatal(err)
			}
			leaseRunsOut(t, a, key)
			lb, err := runtime.New(b, nil).Obtain(ctx, key, 10*time.Second, once)
			if err != nil {
				t.Fatalf("B could not take the expired lock: %v", err)
			}
			if err := la.Release(ctx); !errors.Is(err, runtime.ErrLockLost) {
				t.Fatalf("A's late Release = %v, want ErrLockLost", err)
			}
			if err := lb.Refresh(ctx, 10*time.Second); err != nil {
				t.Fatalf("B lost its lock to A's late Release: %v", err)
			}
			if err := lb.Release(ctx); err != nil {
				t.Fatalf("B's Release: %v", err)
			}
			if n := b.Exists(ctx, key).Val(); n != 0 {
				t.Fatal("B's Release left the lock behind")
			}
		})

		t.Run("token-checked script", func(t *testing.T) {
			release := redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)
			key := p + "order:{4}:lock"
			if !must(t, a.SetNX(ctx, key, "A", 10*time.Second).Result) {
				t.Fatal("A did not get the free lock")
			}
			leaseRunsOut(t, a, key)
			if !must(t, b.SetNX(ctx, key, "B", 10*time.Second).Result) {
				t.Fatal("B did not get the expired lock")
			}
			if n := must(t, release.Run(ctx, a, []string{key}, "A").Int); n != 0 {
				t.Fatalf("A's script deleted %d keys, want 0", n)
			}
			if v := must(t, b.Get(ctx, key).Result); v != "B" {
				t.Fatalf("lock holds %q after A's late release, want B's token", v)
			}
		})
	})
}

// raiseTo is SL1304's lastRead shape (testdata/lockcheck/lostupdate.go
// lastRead) cut in its two steps: read, then write when higher.
type raiseTo struct {
	rdb redis.UniversalClient
	key string
	v   int64
	cur int64
}

func (r *raiseTo) read(t *testing.T) {
	t.Helper()
	n, err := r.rdb.Get(ctx, r.key).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		t.Fatal(err)
	}
	r.cur = n
}

func (r *raiseTo) write(t *testing.T) {
	t.Helper()
	if r.v > r.cur {
		must(t, r.rdb.Set(ctx, r.key, r.v, 0).Result)
	}
}

// TestLostUpdateRace: GET then SET loses an update when two clients
// interleave read, read, write, write; runtime's MaxUpdate, INCR and a
// WATCH transaction do not.
func TestLostUpdateRace(t *testing.T) {
	servers(t, func(t *testing.T, a, b redis.UniversalClient) {
		p := redistest.Prefix(t)

		t.Run("GET compare SET", func(t *testing.T) {
			key := p + "item:{1}:lastRead"
			ra, rb := &raiseTo{rdb: a, key: key, v: 7}, &raiseTo{rdb: b, key: key, v: 5}
			ra.read(t)
			rb.read(t)
			ra.write(t)
			rb.write(t)
			if got := must(t, a.Get(ctx, key).Int64); got != 5 {
				t.Fatalf("lastRead = %d; the interleaving should have lost A's 7 and left 5", got)
			}
		})

		t.Run("GET SET counter", func(t *testing.T) {
			key := p + "hits:{1}"
			na, _ := a.Get(ctx, key).Int()
			nb, _ := b.Get(ctx, key).Int()
			must(t, a.Set(ctx, key, na+1, 0).Result) // reported: SL1304
			must(t, b.Set(ctx, key, nb+1, 0).Result) // reported: SL1304
			if got := must(t, a.Get(ctx, key).Int); got != 1 {
				t.Fatalf("hits = %d after two increments; the interleaving should have lost one", got)
			}
			must(t, a.Incr(ctx, key).Result)
			must(t, b.Incr(ctx, key).Result)
			if got := must(t, a.Get(ctx, key).Int); got != 3 {
				t.Fatalf("hits = %d after two INCRs from 1, want 3", got)
			}
		})

		t.Run("runtime MaxUpdate", func(t *testing.T) {
			key, dirty := runtime.Key(p+"item", "2", "lastRead"), runtime.Key(p+"item", "2", "dirty")
			// The same order as above: A's 7, then B's 5.
			if rose, err := runtime.New(a, nil).MaxUpdate(ctx, key, dirty, "2", 7); err != nil || !rose {
				t.Fatalf("A's 7 on a missing value: rose %v, err %v", rose, err)
			}
			if rose, err := runtime.New(b, nil).MaxUpdate(ctx, key, dirty, "2", 5); err != nil || rose {
				t.Fatalf("B's 5 over A's 7: rose %v, err %v", rose, err)
			}
			if got := must(t, a.Get(ctx, key).Int64); got != 7 {
				t.Fatalf("lastRead = %d, want 7", got)
			}
		})

		t.Run("WATCH and TxPipelined", func(t *testing.T) {
			key := p + "item:{3}:lastRead"
			// B reads inside WATCH and waits; A raises the value to 7;
			// B's EXEC must then fail, and B's retry sees 7 and keeps it.
			bRead, aDone := make(chan struct{}), make(chan struct{})
			bErr := make(chan error, 1)
			go func() {
				attempts := 0
				var err error
				for range 3 {
					attempts++
					err = b.Watch(ctx, func(tx *redis.Tx) error {
						cur, err := tx.Get(ctx, key).Int64()
						if err != nil && !errors.Is(err, redis.Nil) {
							return err
						}
						if attempts == 1 {
							close(bRead)
							<-aDone
						}
						if 5 <= cur {
							return nil
						}
						_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
							p.Set(ctx, key, 5, 0)
							return nil
						})
						return err
					}, key)
					if !errors.Is(err, redis.TxFailedErr) {
						break
					}
				}
				if attempts != 2 {
					err = errors.Join(err, errors.New("B's first EXEC was expected to fail and its retry to succeed"))
				}
				bErr <- err
			}()
			<-bRead
			ra := &raiseTo{rdb: a, key: key, v: 7}
			ra.read(t)
			ra.write(t)
			close(aDone)
			if err := <-bErr; err != nil {
				t.Fatal(err)
			}
			if got := must(t, a.Get(ctx, key).Int64); got != 7 {
				t.Fatalf("lastRead = %d, want 7: the WATCH transaction lost A's update", got)
			}
		})
	})
}

// TestCounterTTLRace: SL1305's shape (testdata/lockcheck/counter.go
// loginAttempts) leaves a counter that never expires once a process dies
// between the INCR and the EXPIRE that only the first hit runs; the
// TxPipelined INCR and EXPIRE NX that the message offers runs both or
// neither, keeps the window fixed and gives a key left without a TTL one
// on the next call.
func TestCounterTTLRace(t *testing.T) {
	servers(t, func(t *testing.T, a, _ redis.UniversalClient) {
		p := redistest.Prefix(t)

		t.Run("INCR, then EXPIRE when the key is new", func(t *testing.T) {
			key := p + "attempts:{u1}"
			// hit counts one attempt; dies stops the process after the
			// INCR, as a crash or a deploy would.
			hit := func(dies bool) int64 {
				n, err := a.Incr(ctx, key).Result() // reported: SL1305
				if err != nil {
					t.Fatal(err)
				}
				if n == 1 && !dies {
					if err := a.Expire(ctx, key, time.Minute).Err(); err != nil {
						t.Fatal(err)
					}
				}
				return n
			}
			hit(true)
			for range 5 {
				hit(false)
			}
			if n := must(t, a.Get(ctx, key).Int64); n != 6 {
				t.Fatalf("count = %d, want 6", n)
			}
			if ttl := must(t, a.Do(ctx, "PTTL", key).Int64); ttl != -1 {
				t.Fatalf("PTTL = %d, want -1 (no expiry): the lost EXPIRE was set again", ttl)
			}
		})

		t.Run("INCR and EXPIRE NX in one TxPipelined", func(t *testing.T) {
			key := p + "attempts:{u2}"
			window := func() int64 {
				var incr *redis.IntCmd
				if _, err := a.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
					incr = pipe.Incr(ctx, key)
					pipe.ExpireNX(ctx, key, time.Minute)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				return incr.Val()
			}
			if n := window(); n != 1 {
				t.Fatalf("first count = %d", n)
			}
			first := must(t, a.Do(ctx, "PEXPIRETIME", key).Int64)
			if first <= 0 {
				t.Fatalf("PEXPIRETIME = %d after the first call, want a deadline", first)
			}
			time.Sleep(5 * time.Millisecond)
			window()
			if again := must(t, a.Do(ctx, "PEXPIRETIME", key).Int64); again != first {
				t.Fatalf("PEXPIRETIME moved from %d to %d: EXPIRE NX should keep the first window", first, again)
			}

			// A counter an earlier crash left without a TTL gets one on
			// the next call.
			stale := p + "attempts:{u3}"
			must(t, a.Set(ctx, stale, 9, 0).Result)
			key = stale
			if n := window(); n != 10 {
				t.Fatalf("count = %d, want 10", n)
			}
			if ttl := must(t, a.Do(ctx, "PTTL", stale).Int64); ttl <= 0 || ttl > time.Minute.Milliseconds() {
				t.Fatalf("PTTL = %d after the call, want a TTL of at most a minute", ttl)
			}
		})
	})
}
