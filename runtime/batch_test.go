package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
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
		addNodeHook(conn, countHook{roundTrips: &sent})
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
		assertBatchersIdle(t, c)
	})
}

// TestMaxUpdateFoldsQueuedCalls queues MaxUpdate calls one by one behind a
// pipeline held in flight, then lets them go: calls of one key, dirty set
// and member are sent as the one of highest value, which alone reports the
// rise; calls that differ in member or key are sent on their own; and when
// the sent call fails, the calls folded into it run on their own and get
// their own results.
func TestMaxUpdateFoldsQueuedCalls(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		id := tagged(t)
		conn := newClient(t, rdb)
		var scripts atomic.Int64
		addNodeHook(conn, countHook{scripts: &scripts})
		c := New(conn, nil)
		if err := c.Preload(ctx); err != nil {
			t.Fatal(err)
		}
		value, other := Key("mxf", id, "v"), Key("mxf", id, "w")
		dirty, wrongDirty := Key("mxf", id, "dirty"), Key("mxf", id, "hash")
		t.Cleanup(func() { rdb.Del(ctx, value, other, dirty, wrongDirty) })
		rdb.Set(ctx, value, 4, 0)
		rdb.HSet(ctx, wrongDirty, "f", "1")

		type update struct {
			key, dirty, member string
			value              int64
		}
		type result struct {
			rose bool
			err  error
		}
		// queued runs the updates as concurrent calls that all queue behind
		// a lone call held in flight, in this order, then releases them.
		// Every key here has one tag, so one shard and one batcher.
		queued := func(updates []update) []result {
			var b *batcher
			for {
				b = c.batcherFor(ctx, value)
				b.mu.Lock()
				gone := b.gone
				b.direct = !gone
				b.mu.Unlock()
				if !gone {
					break
				}
			}
			results := make([]result, len(updates))
			var wg sync.WaitGroup
			for i, u := range updates {
				wg.Go(func() {
					rose, err := c.MaxUpdate(ctx, u.key, u.dirty, u.member, u.value)
					results[i] = result{rose, err}
				})
				for {
					b.mu.Lock()
					n := len(b.queue)
					b.mu.Unlock()
					if n == i+1 {
						break
					}
					time.Sleep(time.Millisecond)
				}
			}
			scripts.Store(0)
			c.endDirect(b)
			wg.Wait()
			return results
		}

		got := queued([]update{
			{value, dirty, "a", 5},
			{value, dirty, "a", 9},
			{value, dirty, "a", 3},
			{value, dirty, "a", 9},
			{value, dirty, "a", 7},
			{value, dirty, "b", 12}, // another member: sent on its own, after the 9
			{other, dirty, "a", 1},  // another key: sent on its own
		})
		want := []result{{false, nil}, {true, nil}, {false, nil}, {false, nil}, {false, nil}, {true, nil}, {true, nil}}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("update %d: rose %v, err %v; want rose %v", i, got[i].rose, got[i].err, want[i].rose)
			}
		}
		if n := scripts.Load(); n != 3 {
			t.Errorf("%d scripts sent for 7 calls on 3 operand sets, want 3", n)
		}
		if v := rdb.Get(ctx, value).Val(); v != "12" {
			t.Errorf("value %s, want 12", v)
		}
		if m := rdb.SMembers(ctx, dirty).Val(); len(m) != 2 {
			t.Errorf("dirty members %v, want a and b", m)
		}

		// The dirty set is a hash: the 8 would rise from 4 and fails; the 3
		// folded into it would not rise and succeeds when run on its own.
		rdb.Set(ctx, other, 4, 0)
		got = queued([]update{
			{other, wrongDirty, "a", 3},
			{other, wrongDirty, "a", 8},
		})
		if got[0] != (result{false, nil}) {
			t.Errorf("folded lower call: rose %v, err %v; want no rise and no error", got[0].rose, got[0].err)
		}
		if !errors.Is(got[1].err, ErrWrongType) {
			t.Errorf("rising call with a wrong-type dirty set: %v, want ErrWrongType", got[1].err)
		}
		if n := scripts.Load(); n != 2 {
			t.Errorf("%d scripts sent, want 2: the folded call again on its own", n)
		}
		if v := rdb.Get(ctx, other).Val(); v != "4" {
			t.Errorf("value %s after the failed rise, want 4", v)
		}
		assertBatchersIdle(t, c)
	})
}

// assertBatchersIdle fails the test when a batcher of c is left sending or
// with calls queued once its callers have returned. A sender closes its
// callers' done channels before it goes idle, so it is given time: ten
// seconds, against the moment it needs, as its goroutine may wait for a
// core on a loaded machine.
func assertBatchersIdle(t *testing.T, c *Client) {
	t.Helper()
	busy := func() string {
		c.mu.Lock()
		defer c.mu.Unlock()
		for id, b := range c.batchers {
			b.mu.Lock()
			sending, n := b.busy || b.direct, len(b.queue)
			b.mu.Unlock()
			if sending || n != 0 {
				return fmt.Sprintf("batcher %v left sending (%v) with %d queued calls", id, sending, n)
			}
		}
		return ""
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if busy() == "" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	if msg := busy(); msg != "" {
		t.Fatal(msg)
	}
}

// addNodeHook adds h where every round trip of the client passes once: on
// a cluster, on each master's own client, which serves the cluster
// client's lone commands and the package's pipelines (runPipelined).
func addNodeHook(conn redis.UniversalClient, h redis.Hook) {
	if cc, ok := conn.(*redis.ClusterClient); ok {
		cc.OnNewNode(func(n *redis.Client) { n.AddHook(h) })
		return
	}
	conn.AddHook(h)
}

// countHook counts round trips (single commands and pipelines) in
// roundTrips and the script commands among them in scripts; either may be
// nil.
type countHook struct{ roundTrips, scripts *atomic.Int64 }

func (countHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.count(cmd)
		return next(ctx, cmd)
	}
}
func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.count(cmds...)
		return next(ctx, cmds)
	}
}
func (h countHook) count(cmds ...redis.Cmder) {
	if h.roundTrips != nil {
		h.roundTrips.Add(1)
	}
	for _, cmd := range cmds {
		if name := cmd.Name(); h.scripts != nil && (name == "evalsha" || name == "eval") {
			h.scripts.Add(1)
		}
	}
}

// TestBatchersLeaveWhenIdle runs calls on the shards of many slots (a ring
// keys its batchers by slot) through a Client whose batchers may be swept
// after 20ms unused, with contexts that end (the calls go through the
// shards' senders) and without (lone calls go out on the caller's
// goroutine), in bursts with pauses around that idle time so that callers
// race against the sweeps. Every call must get its result; afterwards
// adding a batcher sweeps out the others, so the Client keeps no batcher
// per shard it ever saw.
func TestBatchersLeaveWhenIdle(t *testing.T) {
	rdb := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": redistest.StandaloneAddr(t)}})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	c := New(rdb, nil)
	c.batcherIdle = 20 * time.Millisecond
	id := tagged(t)
	const tags = 40
	value := func(i int) string { return Key("idle", id+"-"+strconv.Itoa(i), "v") }
	dirty := func(i int) string { return Key("idle", id+"-"+strconv.Itoa(i), "dirty") }
	t.Cleanup(func() {
		for i := range tags {
			rdb.Del(ctx, value(i), dirty(i))
		}
	})
	count := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.batchers)
	}
	var wg sync.WaitGroup
	var highest [tags]atomic.Int64
	var peak atomic.Int64
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 11))
			for n := range 60 {
				i := r.IntN(tags)
				cctx, cancel := ctx, context.CancelFunc(func() {})
				if g%2 == 0 {
					cctx, cancel = context.WithTimeout(ctx, 10*time.Second)
				}
				v := int64(g*1000 + n)
				_, err := c.MaxUpdate(cctx, value(i), dirty(i), "m", v)
				cancel()
				if err != nil {
					t.Errorf("MaxUpdate: %v", err)
					return
				}
				for {
					h := highest[i].Load()
					if v <= h || highest[i].CompareAndSwap(h, v) {
						break
					}
				}
				if g == 0 {
					peak.Store(max(peak.Load(), int64(count())))
				}
				if n%10 == 9 {
					time.Sleep(time.Duration(10+r.IntN(20)) * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	for i := range tags {
		if want := highest[i].Load(); want > 0 {
			if got, err := rdb.Get(ctx, value(i)).Int64(); err != nil || got != want {
				t.Errorf("value %d: %d (%v), want %d", i, got, err, want)
			}
		}
	}
	if p := peak.Load(); p < 2 {
		t.Fatalf("at most %d batchers during calls on %d slots: the test does not exercise them", p, tags)
	}
	t.Logf("up to %d batchers during the calls", peak.Load())
	// Every sender is done, and then idle for well past the idle time.
	assertBatchersIdle(t, c)
	time.Sleep(100 * time.Millisecond)
	// One more call on a new slot adds a batcher and sweeps the idle ones.
	if _, err := c.MaxUpdate(ctx, value(tags), dirty(tags), "m", 1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Del(ctx, value(tags), dirty(tags)) })
	if n := count(); n != 1 {
		t.Errorf("%d batchers after the Client was idle and used one slot, want 1", n)
	}
}

// TestUncontendedLockRoundTrips checks that an uncontended Obtain and its
// Release make one round trip each, one script call each, whether they go
// out on the caller's goroutine (a context that never ends, or a deadline
// on a ContextTimeoutEnabled client) or through the shard's sender (a
// deadline on a default client): the bounds put on waiting and on calls in
// flight add no round trip.
func TestUncontendedLockRoundTrips(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		for _, mode := range []string{"background", "deadline", "ctxtimeout"} {
			var conn redis.UniversalClient
			switch rdb.(type) {
			case *redis.ClusterClient:
				conn = redis.NewClusterClient(&redis.ClusterOptions{Addrs: redistest.ClusterAddrs(t), ContextTimeoutEnabled: mode == "ctxtimeout"})
			default:
				conn = redis.NewClient(&redis.Options{Addr: redistest.StandaloneAddr(t), ContextTimeoutEnabled: mode == "ctxtimeout"})
			}
			t.Cleanup(func() { conn.Close() })
			c := New(conn, nil)
			if err := c.Preload(ctx); err != nil {
				t.Fatal(err)
			}
			key := Key("trips", tagged(t)+mode, "lock")
			cctx, cancel := ctx, context.CancelFunc(func() {})
			if mode != "background" {
				cctx, cancel = context.WithTimeout(ctx, time.Minute)
			}
			// A first cycle loads the cluster's slot map and command table.
			l, err := c.Obtain(cctx, key, time.Second, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Release(cctx); err != nil {
				t.Fatal(err)
			}
			var trips, scripts atomic.Int64
			conn.AddHook(countHook{roundTrips: &trips, scripts: &scripts})
			for range 5 {
				l, err := c.Obtain(cctx, key, time.Second, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := l.Release(cctx); err != nil {
					t.Fatal(err)
				}
			}
			cancel()
			if n, s := trips.Load(), scripts.Load(); n != 10 || s != 10 {
				t.Errorf("%s: 5 uncontended Obtain+Release cycles made %d round trips with %d script calls, want 10 and 10", mode, n, s)
			}
		}
	})
}
