package runtime

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestMaxUpdateBatched has many goroutines of one Client update a few ids,
// so that their calls share pipelines, while some calls hit a key of the
// wrong type, some come with a context that has already ended, and the
// script cache is flushed now and then: every call gets its own result,
// the values end at their maxima, and the calls did share round trips.
func TestMaxUpdateBatched(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		id := tagged(t)
		conn := newClient(t, rdb)
		var sent atomic.Int64
		conn.AddHook(countHook{&sent})
		c := New(conn, nil)
		const (
			goroutines = 50
			perG       = 200
			ids        = 8
		)
		valueKey := func(i int) string { return Key("mxb", id, "v", strconv.Itoa(i)) }
		dirty, wrong := Key("mxb", id, "dirty"), Key("mxb", id, "wrong")
		rdb.HSet(ctx, wrong, "a", "1")
		t.Cleanup(func() {
			for i := range ids {
				rdb.Del(ctx, valueKey(i))
			}
			rdb.Del(ctx, dirty, wrong)
		})
		var mu sync.Mutex
		want := make([]int64, ids)
		for i := range want {
			want[i] = -1 << 62
		}
		stop := make(chan struct{})
		flushed := make(chan struct{})
		go func() {
			defer close(flushed)
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
					flushScripts(t, rdb)
				}
			}
		}()
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(g), 7))
				for n := range perG {
					switch n % 50 {
					case 7:
						if _, err := c.MaxUpdate(ctx, wrong, dirty, "w", 1); !errors.Is(err, ErrWrongType) {
							t.Errorf("wrong-type key: %v", err)
						}
						continue
					case 11:
						done, cancel := context.WithCancel(ctx)
						cancel()
						if _, err := c.MaxUpdate(done, valueKey(0), dirty, "0", 1<<62); !errors.Is(err, context.Canceled) {
							t.Errorf("ended context: %v", err)
						}
						continue
					}
					i := r.IntN(ids)
					v := r.Int64N(1<<40) - 1<<39
					if _, err := c.MaxUpdate(ctx, valueKey(i), dirty, strconv.Itoa(i), v); err != nil {
						t.Errorf("update: %v", err)
						return
					}
					mu.Lock()
					want[i] = max(want[i], v)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		close(stop)
		<-flushed
		for i, v := range want {
			if got := rdb.Get(ctx, valueKey(i)).Val(); got != strconv.FormatInt(v, 10) {
				t.Fatalf("value %d = %s, want %d", i, got, v)
			}
		}
		if n := rdb.SCard(ctx, dirty).Val(); n != ids {
			t.Fatalf("%d dirty ids, want %d", n, ids)
		}
		calls := int64(goroutines * perG * 48 / 50)
		if s := sent.Load(); s >= calls {
			t.Fatalf("%d round trips for %d calls: nothing was batched", s, calls)
		} else {
			t.Logf("%d round trips for %d calls", s, calls)
		}
		if c.batch.busy || len(c.batch.queue) != 0 {
			t.Fatalf("batcher left busy with %d queued calls", len(c.batch.queue))
		}
	})
}

// countHook counts round trips: single commands and pipelines.
type countHook struct{ n *atomic.Int64 }

func (countHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}
func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmds)
	}
}
