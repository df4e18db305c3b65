package runtime

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// incrWindowErr is IncrWindow's error alone.
func incrWindowErr(_, _ any, err error) error { return err }

// TestIncrWindow: concurrent increments of one counter each get their own
// count, the window is the first increment's and does not slide, the next
// window starts at the increment after it ends, and a counter that other
// code left without a TTL gets the window's.
func TestIncrWindow(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		id := tagged(t)
		key := Key("hits", id, "window")
		// Long enough that the concurrent calls all fall in the first
		// window however loaded the machine; the next window is checked
		// on a key of its own with a short one.
		const window = time.Minute

		count, left, err := New(rdb, nil).IncrWindow(ctx, key, 1, window)
		if err != nil || count != 1 || left != window {
			t.Fatalf("first IncrWindow = %d, %v, %v; want 1, %v", count, left, err, window)
		}
		start, err := rdb.Do(ctx, "PEXPIRETIME", key).Int64()
		if err != nil || start <= 0 {
			t.Fatalf("PEXPIRETIME %d, %v after the first increment", start, err)
		}
		const goroutines, calls = 8, 20
		seen := make([]bool, 2+goroutines*calls)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range goroutines {
			c := New(newClient(t, rdb), nil)
			wg.Go(func() {
				for range calls {
					n, left, err := c.IncrWindow(ctx, key, 1, window)
					if err != nil {
						t.Error(err)
						return
					}
					if left <= 0 || left > window {
						t.Errorf("left %v, want in (0, %v]", left, window)
					}
					mu.Lock()
					if n < 2 || n >= int64(len(seen)) || seen[n] {
						t.Errorf("count %d twice or out of range", n)
					} else {
						seen[n] = true
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		if got, err := rdb.Do(ctx, "PEXPIRETIME", key).Int64(); err != nil || got != start {
			t.Fatalf("PEXPIRETIME moved from %d to %d (%v): the window slid", start, got, err)
		}
		if v := rdb.Get(ctx, key).Val(); v != "161" {
			t.Fatalf("counter %q, want 161", v)
		}

		// The next window: the key is gone once the first one ends, and
		// the increment after it starts a new count and a new window.
		short := Key("hits", id, "short")
		t.Cleanup(func() { rdb.Del(ctx, short) })
		if _, _, err := New(rdb, nil).IncrWindow(ctx, short, 3, 50*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		for rdb.Exists(ctx, short).Val() == 1 {
			time.Sleep(10 * time.Millisecond)
		}
		if count, left, err := New(rdb, nil).IncrWindow(ctx, short, 5, window); err != nil || count != 5 || left != window {
			t.Fatalf("IncrWindow after the window = %d, %v, %v; want 5, %v", count, left, err, window)
		}

		// A counter without a TTL, and one below zero.
		stale, negative := Key("hits", id, "stale"), Key("hits", id, "negative")
		rdb.Set(ctx, stale, 41, 0)
		rdb.Set(ctx, negative, -3, 0)
		t.Cleanup(func() { rdb.Del(ctx, stale, negative) })
		if count, left, err := New(rdb, nil).IncrWindow(ctx, stale, 1, time.Minute); err != nil || count != 42 || left != time.Minute {
			t.Fatalf("IncrWindow of a counter without a TTL = %d, %v, %v; want 42, 1m", count, left, err)
		}
		if ttl := rdb.PTTL(ctx, stale).Val(); ttl <= 0 || ttl > time.Minute {
			t.Fatalf("PTTL %v after IncrWindow of a counter without a TTL", ttl)
		}
		if count, _, err := New(rdb, nil).IncrWindow(ctx, negative, 1, time.Minute); err != nil || count != -2 {
			t.Fatalf("IncrWindow of -3 = %d, %v; want -2", count, err)
		}
	})
}

// TestFaultIncrWindowPausedServer: on a server paused (SIGSTOP) the call
// returns for its deadline with an error that says so, on a go-redis client
// with its default options, and the increment it sent runs once the server
// resumes, with the window's TTL.
func TestFaultIncrWindowPausedServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a private server and pauses it")
	}
	srv := redistest.StartServer(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { rdb.Close() })
	observer := srv.Client(t)
	ctx := context.Background()
	c := New(rdb, nil)
	if err := c.Preload(ctx); err != nil {
		t.Fatal(err)
	}
	key := Key("paused", tagged(t), "hits")

	srv.Pause(t)
	dctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	_, _, err := c.IncrWindow(dctx, key, 1, time.Minute)
	cancel()
	srv.Resume(t)
	// The call ends for its context (a hang would end, if ever, with
	// go-redis's read timeout instead); how soon is
	// BenchmarkFaultPausedMaster's matter.
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("IncrWindow on a paused server: %v, want an error wrapping context.DeadlineExceeded", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for observer.Exists(ctx, key).Val() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the increment sent to the paused server never ran")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ttl := observer.PTTL(ctx, key).Val(); ttl <= 0 || ttl > time.Minute {
		t.Fatalf("PTTL %v of the counter the paused call created, want the window's", ttl)
	}
}

// BenchmarkIncrWindow compares, on the standalone server and the cluster,
// IncrWindow with the two ways of writing the same counter in go-redis:
// INCR and EXPIRE NX in one TxPipelined (Redis 7), and the two-command
// shape SL1305 reports (INCR, then EXPIRE when the count is 1). Each
// iteration counts one hit of one of 1,000 keys, so most calls find the
// window open, as a limiter's do: one caller after another, then 50
// callers at once (a server's request handlers).
func BenchmarkIncrWindow(b *testing.B) {
	for _, srv := range []struct {
		name string
		rdb  func(testing.TB) redis.UniversalClient
	}{
		{"standalone", func(tb testing.TB) redis.UniversalClient { return redistest.Standalone(tb) }},
		{"cluster", func(tb testing.TB) redis.UniversalClient { return redistest.Cluster(tb) }},
	} {
		b.Run(srv.name, func(b *testing.B) {
			rdb := srv.rdb(b)
			ctx := context.Background()
			c := New(rdb, nil)
			if err := c.Preload(ctx); err != nil {
				b.Fatal(err)
			}
			id := tagged(b)
			keys := make([]string, 1000)
			for i := range keys {
				keys[i] = Key("bench-hits", id+"-"+strconv.Itoa(i))
			}
			b.Cleanup(func() {
				for _, k := range keys {
					rdb.Del(ctx, k)
				}
			})
			const window = time.Minute
			shapes := []struct {
				name string
				hit  func(key string) error
			}{
				{"runtime.IncrWindow", func(key string) error {
					_, _, err := c.IncrWindow(ctx, key, 1, window)
					return err
				}},
				{"TxPipelined INCR+EXPIRE NX", func(key string) error {
					_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
						p.Incr(ctx, key)
						p.ExpireNX(ctx, key, window)
						return nil
					})
					return err
				}},
				{"INCR then EXPIRE if 1 (SL1305)", func(key string) error {
					n, err := rdb.Incr(ctx, key).Result() //slotlint:ignore SL1305 the shape measured against
					if err == nil && n == 1 {
						err = rdb.Expire(ctx, key, window).Err()
					}
					return err
				}},
			}
			for _, shape := range shapes {
				b.Run("serial/"+shape.name, func(b *testing.B) {
					for i := 0; b.Loop(); i++ {
						if err := shape.hit(keys[i%len(keys)]); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			for _, shape := range shapes {
				b.Run("50 callers/"+shape.name, func(b *testing.B) {
					b.SetParallelism(25) // 50 goroutines on the 2 CPUs
					var next atomic.Int64
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := shape.hit(keys[next.Add(1)%int64(len(keys))]); err != nil {
								b.Error(err)
								return
							}
						}
					})
				})
			}
		})
	}
}
