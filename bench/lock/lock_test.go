// Package lock compares slotlint's runtime locks and MaxUpdate with
// github.com/bsm/redislock and github.com/go-redsync/redsync/v4 on the same
// redis-server in the same run. Run it under scripts/redis-test-env, which
// sets SLOTLINT_REDIS_ADDR; see BENCHMARKS.md for the commands.
package lock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/runtime"
)

const (
	ttl  = 10 * time.Second // long: every lock is released, none expires
	work = time.Millisecond // time spent holding the lock in scenario (a)
)

func addr(b *testing.B) string {
	a := os.Getenv("SLOTLINT_REDIS_ADDR")
	if a == "" {
		b.Skip("SLOTLINT_REDIS_ADDR is not set: run under scripts/redis-test-env")
	}
	return a
}

func newRedis(b *testing.B) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr(b), PoolSize: 128})
	b.Cleanup(func() { c.Close() })
	return c
}

func uniqueID() string {
	var r [6]byte
	rand.Read(r[:])
	return hex.EncodeToString(r[:])
}

// acquirer takes a lock on key and returns its release function.
type acquirer func(ctx context.Context, key string) (release func(), err error)

// library builds an acquirer over one go-redis client: a *redis.Client or,
// for the cluster scenario, a *redis.ClusterClient.
type library struct {
	name string
	make func(rdb redis.UniversalClient) acquirer
}

var libraries = []library{
	{"slotlint", func(rdb redis.UniversalClient) acquirer {
		c := runtime.New(rdb, nil)
		return func(ctx context.Context, key string) (func(), error) {
			l, err := c.Obtain(ctx, key, ttl, nil)
			if err != nil {
				return nil, err
			}
			return func() { l.Release(ctx) }, nil
		}
	}},
	{"redislock", func(rdb redis.UniversalClient) acquirer {
		c := redislock.New(rdb)
		return func(ctx context.Context, key string) (func(), error) {
			// The strategy counts retries, so each Obtain needs its own.
			// Bounds as slotlint's defaults: 1ms doubling up to 32ms.
			l, err := c.Obtain(ctx, key, ttl, &redislock.Options{
				RetryStrategy: redislock.ExponentialBackoff(time.Millisecond, 32*time.Millisecond),
			})
			if err != nil {
				return nil, err
			}
			return func() { l.Release(ctx) }, nil
		}
	}},
	{"redsync", func(rdb redis.UniversalClient) acquirer {
		rs := redsync.New(goredis.NewPool(rdb))
		return func(ctx context.Context, key string) (func(), error) {
			// redsync's default retry delay (50-250ms); enough tries never
			// to give up within a run.
			m := rs.NewMutex(key, redsync.WithExpiry(ttl), redsync.WithTries(1<<20))
			if err := m.LockContext(ctx); err != nil {
				return nil, err
			}
			return func() { m.UnlockContext(ctx) }, nil
		}
	}},
}

// BenchmarkContended is scenario (a): G goroutines take one shared key in
// turn and hold it for 1ms. shared: all goroutines use one locker and one
// go-redis client (a1); separate: each goroutine has its own locker and
// client, standing in for separate processes (a2). b.N is the total number
// of lock cycles. Metrics: cycles/s, acquire latency p50/p99 (ms), the
// fewest and most cycles of one goroutine, the measured length of the
// critical section (section-ms) and the share of the run spent in it.
func BenchmarkContended(b *testing.B) {
	for _, mode := range []string{"shared", "separate"} {
		for _, lib := range libraries {
			for _, g := range []int{1, 10, 50, 100} {
				b.Run(fmt.Sprintf("%s/%s/G=%d", mode, lib.name, g), func(b *testing.B) {
					contended(b, lib, g, mode == "shared")
				})
			}
		}
	}
}

func contended(b *testing.B, lib library, goroutines int, shared bool) {
	key := runtime.Key("bench", uniqueID(), "lock")
	acquirers := make([]acquirer, goroutines)
	if shared {
		a := lib.make(newRedis(b))
		for i := range acquirers {
			acquirers[i] = a
		}
	} else {
		for i := range acquirers {
			acquirers[i] = lib.make(newRedis(b))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var next atomic.Int64
	counts := make([]int, goroutines)
	lat := make([][]time.Duration, goroutines)
	held := make([]time.Duration, goroutines) // time spent in the 1ms sleeps
	var wg sync.WaitGroup
	var failed atomic.Value
	b.ResetTimer()
	start := time.Now()
	for i := range goroutines {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				t0 := time.Now()
				release, err := acquirers[i](ctx, key)
				if err != nil {
					failed.Store(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t0))
				counts[i]++
				t1 := time.Now()
				time.Sleep(work)
				held[i] += time.Since(t1)
				release()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, ok := failed.Load().(error); ok {
		b.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "cycles/s")
	b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
	b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
	b.ReportMetric(float64(slices.Min(counts)), "min-cycles")
	b.ReportMetric(float64(slices.Max(counts)), "max-cycles")
	// A 1ms sleep lasts longer on a loaded machine: the measured critical
	// section bounds the cycles per second any lock can reach, and
	// "in-section" is the share of the run the lock spent held by work.
	var section time.Duration
	for _, h := range held {
		section += h
	}
	b.ReportMetric(ms(section)/float64(len(all)), "section-ms")
	b.ReportMetric(section.Seconds()/elapsed.Seconds(), "in-section")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkLockCycle is the cost of one uncontended lock cycle, Obtain and
// Release of one key by one goroutine with nothing held in between: two
// script calls, each alone on its shard. "deadline": go-redis defaults and a
// context with a deadline, as a service passes it; "background": a context
// that never ends; "ctxtimeout": a go-redis client with
// ContextTimeoutEnabled and a context with a deadline. Besides ns/op it
// reports, per cycle, the goroutines the process created, the context
// switches of its OS threads (getrusage, voluntary and involuntary) and the
// CPU time of the process (user and system): a call that crosses goroutines
// pays in wake-ups what a call on the caller's goroutine does not.
func BenchmarkLockCycle(b *testing.B) {
	for _, mode := range []string{"deadline", "background", "ctxtimeout"} {
		b.Run(mode, func(b *testing.B) {
			opts := &redis.Options{Addr: addr(b), PoolSize: 128, ContextTimeoutEnabled: mode == "ctxtimeout"}
			rdb := redis.NewClient(opts)
			b.Cleanup(func() { rdb.Close() })
			c := runtime.New(rdb, nil)
			key := runtime.Key("bench", uniqueID(), "lock")
			ctx := context.Background()
			if mode != "background" {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 10*time.Minute)
				defer cancel()
			}
			sample := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
			var ru0, ru1 syscall.Rusage
			b.ResetTimer()
			metrics.Read(sample)
			created := sample[0].Value.Uint64()
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			for b.Loop() {
				l, err := c.Obtain(ctx, key, ttl, nil)
				if err != nil {
					b.Fatal(err)
				}
				if err := l.Release(ctx); err != nil {
					b.Fatal(err)
				}
			}
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			metrics.Read(sample)
			b.ReportMetric(float64(sample[0].Value.Uint64()-created)/float64(b.N), "goroutines/op")
			sw := (ru1.Nvcsw - ru0.Nvcsw) + (ru1.Nivcsw - ru0.Nivcsw)
			b.ReportMetric(float64(sw)/float64(b.N), "ctxsw/op")
			cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(b.N)
			b.ReportMetric(float64(cpu)/float64(time.Microsecond), "cpu-µs/op")
		})
	}
}

// BenchmarkDistinctKeys is scenario (b): 50 goroutines, each obtaining and
// releasing its own key with nothing held in between; ns/op is per cycle.
func BenchmarkDistinctKeys(b *testing.B) {
	distinctKeys(b, func(b *testing.B) redis.UniversalClient { return newRedis(b) })
}

// BenchmarkDistinctKeysCluster is scenario (b) on the 3-master cluster,
// through one go-redis ClusterClient per library: the keys spread over the
// masters, and the runtime batches the calls of each master on that
// master's own client (its answer to go-redis re-sending a whole cluster
// pipeline on TRYAGAIN), where the peers send one command or script at a
// time. Run it under scripts/redis-test-env, which sets
// SLOTLINT_REDIS_CLUSTER_ADDRS.
func BenchmarkDistinctKeysCluster(b *testing.B) {
	addrs := os.Getenv("SLOTLINT_REDIS_CLUSTER_ADDRS")
	if addrs == "" {
		b.Skip("SLOTLINT_REDIS_CLUSTER_ADDRS is not set: run under scripts/redis-test-env")
	}
	distinctKeys(b, func(b *testing.B) redis.UniversalClient {
		c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(addrs, ","), PoolSize: 128})
		b.Cleanup(func() { c.Close() })
		return c
	})
}

func distinctKeys(b *testing.B, client func(*testing.B) redis.UniversalClient) {
	for _, lib := range libraries {
		b.Run(lib.name, func(b *testing.B) {
			a := lib.make(client(b))
			id := uniqueID()
			var n atomic.Int64
			ctx := context.Background()
			b.SetParallelism(25) // 25 × GOMAXPROCS(2) = 50 goroutines
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				key := runtime.Key("bench", fmt.Sprintf("%s-%d", id, n.Add(1)), "lock")
				for pb.Next() {
					release, err := a(ctx, key)
					if err != nil {
						b.Error(err)
						return
					}
					release()
				}
			})
		})
	}
}

// BenchmarkMaxUpdate is scenario (c): G goroutines raise values of 16 hot
// ids, out of order, either with MaxUpdate (one script call) or with a lock
// around GET, SET and SADD, the code MaxUpdate replaces: with redislock
// (SET NX PX, then a compare-and-delete script, retrying with the same
// backoff as in scenario (a)), as services write it by hand, and with
// slotlint's own lock (waiting with backoff, wake-ups and hand-offs).
// ns/op is per update.
func BenchmarkMaxUpdate(b *testing.B) {
	const ids = 16
	for _, g := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("script/G=%d", g), func(b *testing.B) {
			rdb := newRedis(b)
			c := runtime.New(rdb, nil)
			table := runtime.MaxTable{Name: "bench-max-" + uniqueID(), Shards: 16}
			maxUpdates(b, g, func(ctx context.Context, r *mrand.Rand) error {
				_, err := c.Update(ctx, table, fmt.Sprint(r.IntN(ids)), r.Int64N(1<<40))
				return err
			})
		})
		for _, lib := range []string{"redislock", "slotlint"} {
			b.Run(fmt.Sprintf("%s-get-set-sadd/G=%d", lib, g), func(b *testing.B) {
				rdb := newRedis(b)
				var lock func(ctx context.Context, key string) (func(), error)
				if lib == "redislock" {
					c := redislock.New(rdb)
					lock = func(ctx context.Context, key string) (func(), error) {
						l, err := c.Obtain(ctx, key, ttl, &redislock.Options{
							RetryStrategy: redislock.ExponentialBackoff(time.Millisecond, 32*time.Millisecond),
						})
						if err != nil {
							return nil, err
						}
						return func() { l.Release(ctx) }, nil
					}
				} else {
					c := runtime.New(rdb, nil)
					lock = func(ctx context.Context, key string) (func(), error) {
						l, err := c.Obtain(ctx, key, ttl, nil)
						if err != nil {
							return nil, err
						}
						return func() { l.Release(ctx) }, nil
					}
				}
				table := runtime.MaxTable{Name: "bench-max-" + uniqueID(), Shards: 16}
				maxUpdates(b, g, func(ctx context.Context, r *mrand.Rand) error {
					id := fmt.Sprint(r.IntN(ids))
					v := r.Int64N(1 << 40)
					key, err := table.ValueKey(id)
					if err != nil {
						return err
					}
					unlock, err := lock(ctx, key+":lock")
					if err != nil {
						return err
					}
					defer unlock()
					cur, err := rdb.Get(ctx, key).Int64()
					if err != nil && err != redis.Nil {
						return err
					}
					if err == nil && v <= cur {
						return nil
					}
					if err := rdb.Set(ctx, key, v, 0).Err(); err != nil {
						return err
					}
					return rdb.SAdd(ctx, table.Name+":dirty", id).Err()
				})
			})
		}
	}
}

func maxUpdates(b *testing.B, goroutines int, update func(context.Context, *mrand.Rand) error) {
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := range goroutines {
		wg.Go(func() {
			r := mrand.New(mrand.NewPCG(uint64(i), 3))
			for next.Add(1) <= int64(b.N) {
				if err := update(ctx, r); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "updates/s")
}
