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
)

func TestDecrementIfAvailableNeverOversells(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("stock", tagged(t), "count")
		const stock = 500
		if err := rdb.Set(ctx, key, stock, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		var sold, refused atomic.Int64
		var wg sync.WaitGroup
		for g := range 16 {
			c := New(newClient(t, rdb), nil)
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(g), 1))
				for range 60 {
					n := int64(1 + r.IntN(3))
					left, err := c.DecrementIfAvailable(ctx, key, n)
					switch {
					case err == nil:
						sold.Add(n)
						if left < 0 {
							t.Errorf("left %d", left)
						}
					case errors.Is(err, ErrInsufficient):
						refused.Add(1)
						if left >= n {
							t.Errorf("refused %d with %d left", n, left)
						}
					default:
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		left, err := rdb.Get(ctx, key).Int64()
		if err != nil {
			t.Fatal(err)
		}
		if left < 0 || sold.Load()+left != stock {
			t.Fatalf("sold %d, left %d, stock %d", sold.Load(), left, stock)
		}
		if refused.Load() == 0 || left > 2 {
			t.Fatalf("stock not exhausted: left %d, refused %d", left, refused.Load())
		}
	})
}

// TestCounterErrors: the counters' bad arguments fail before any round
// trip, a key of another kind or a value that is not an integer of at
// most 15 digits is ErrWrongType (a missing one ErrNotFound where the
// counter must exist), and none of them writes anything.
func TestCounterErrors(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		missing, text, list, big := badCounters(t, rdb, "c")
		before := snapshot(t, rdb, missing, text, list, big)
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		for _, tc := range []struct {
			name string
			err  error
			want error
		}{
			{"missing", second(c.DecrementIfAvailable(ctx, missing, 1)), ErrNotFound},
			{"not an integer", second(c.DecrementIfAvailable(ctx, text, 1)), ErrWrongType},
			{"list", second(c.DecrementIfAvailable(ctx, list, 1)), ErrWrongType},
			{"too many digits", second(c.DecrementIfAvailable(ctx, big, 1)), ErrWrongType},
			{"zero", second(c.DecrementIfAvailable(ctx, text, 0)), ErrInvalidArgument},
			{"negative", second(c.DecrementIfAvailable(ctx, text, -1)), ErrInvalidArgument},
			{"empty key", second(c.DecrementIfAvailable(ctx, "", 1)), ErrInvalidArgument},
			{"cancelled", second(c.DecrementIfAvailable(cancelled, missing, 1)), context.Canceled},
			{"issue list", second(c.IssueOnce(ctx, list, "u", 5)), ErrWrongType},
			{"issue string", second(c.IssueOnce(ctx, text, "u", 5)), ErrWrongType},
			{"issue cap", second(c.IssueOnce(ctx, missing, "u", 0)), ErrInvalidArgument},
			{"issue user", second(c.IssueOnce(ctx, missing, "", 5)), ErrInvalidArgument},
			{"issue cancelled", second(c.IssueOnce(cancelled, missing, "u", 5)), context.Canceled},
			{"window not an integer", incrWindowErr(c.IncrWindow(ctx, text, 1, time.Second)), ErrWrongType},
			{"window list", incrWindowErr(c.IncrWindow(ctx, list, 1, time.Second)), ErrWrongType},
			{"window too many digits", incrWindowErr(c.IncrWindow(ctx, big, 1, time.Second)), ErrWrongType},
			{"window zero increment", incrWindowErr(c.IncrWindow(ctx, missing, 0, time.Second)), ErrInvalidArgument},
			{"window negative increment", incrWindowErr(c.IncrWindow(ctx, missing, -1, time.Second)), ErrInvalidArgument},
			{"window increment of 16 digits", incrWindowErr(c.IncrWindow(ctx, missing, 1_000_000_000_000_000, time.Second)), ErrInvalidArgument},
			{"window zero", incrWindowErr(c.IncrWindow(ctx, missing, 1, 0)), ErrInvalidArgument},
			{"window negative", incrWindowErr(c.IncrWindow(ctx, missing, 1, -time.Second)), ErrInvalidArgument},
			{"window under a millisecond", incrWindowErr(c.IncrWindow(ctx, missing, 1, 999*time.Microsecond)), ErrInvalidArgument},
			{"window empty key", incrWindowErr(c.IncrWindow(ctx, "", 1, time.Second)), ErrInvalidArgument},
			{"window cancelled", incrWindowErr(c.IncrWindow(cancelled, missing, 1, time.Second)), context.Canceled},
		} {
			if !errors.Is(tc.err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
			}
		}
		if !equal(before, snapshot(t, rdb, missing, text, list, big)) {
			t.Fatal("a refused call wrote to Redis")
		}
	})
}

func TestIssueOnce(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("coupon", tagged(t), "issued")
		t.Cleanup(func() { rdb.Del(ctx, key) })
		const capacity = 100
		const users = 150
		var issued, already, exhausted atomic.Int64
		perUser := make([]atomic.Int32, users)
		var wg sync.WaitGroup
		for g := range 12 {
			c := New(newClient(t, rdb), nil)
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(g), 2))
				for range 60 {
					u := r.IntN(users)
					n, err := c.IssueOnce(ctx, key, "user-"+strconv.Itoa(u), capacity)
					switch {
					case err == nil:
						issued.Add(1)
						perUser[u].Add(1)
					case errors.Is(err, ErrAlreadyIssued):
						already.Add(1)
					case errors.Is(err, ErrExhausted):
						exhausted.Add(1)
						if n != capacity {
							t.Errorf("exhausted at %d", n)
						}
					default:
						t.Error(err)
					}
					if n > capacity {
						t.Errorf("issued count %d beyond the cap", n)
					}
				}
			})
		}
		wg.Wait()
		for u := range perUser {
			if n := perUser[u].Load(); n > 1 {
				t.Fatalf("user %d issued %d times", u, n)
			}
		}
		members := rdb.SCard(ctx, key).Val()
		if members != issued.Load() || members > capacity {
			t.Fatalf("set has %d members, %d issued, cap %d", members, issued.Load(), capacity)
		}
		if already.Load() == 0 || exhausted.Load() == 0 || members != capacity {
			t.Fatalf("issued %d, already %d, exhausted %d: not every path was exercised", members, already.Load(), exhausted.Load())
		}
		// A repeat by a served user reports already-issued, even when the
		// pool is full, and changes nothing.
		holder := rdb.SRandMember(ctx, key).Val()
		before := snapshot(t, rdb, key)
		if _, err := New(rdb, nil).IssueOnce(ctx, key, holder, capacity); !errors.Is(err, ErrAlreadyIssued) {
			t.Fatalf("repeat: %v", err)
		}
		if !equal(before, snapshot(t, rdb, key)) {
			t.Fatal("repeat changed the pool")
		}
	})
}

// TestMaxUpdateConcurrent sends shuffled updates for a few ids from many
// goroutines: each ends at its true maximum, and the dirty sets hold
// exactly the ids that rose and were not drained yet.
func TestMaxUpdateConcurrent(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		table := MaxTable{Name: "maxtest-" + tagged(t), Shards: 8}
		const ids = 20
		want := map[string]int64{}
		type update struct {
			id string
			v  int64
		}
		var updates []update
		r := rand.New(rand.NewPCG(9, 9))
		for i := range ids {
			id := fmt.Sprintf("sensor-%d", i)
			for range 100 {
				v := r.Int64N(1<<62) - 1<<61
				if i == 0 {
					v = 9007199254740993 + r.Int64N(3) // beyond 2^53: exact order matters
				}
				updates = append(updates, update{id, v})
				if cur, ok := want[id]; !ok || v > cur {
					want[id] = v
				}
			}
		}
		r.Shuffle(len(updates), func(i, j int) { updates[i], updates[j] = updates[j], updates[i] })
		t.Cleanup(func() {
			for id := range want {
				rdb.Del(ctx, must1(table.ValueKey(id)))
			}
			for s := range table.Shards {
				rdb.Del(ctx, must1(table.DirtyKey(s)))
			}
		})

		var rose atomic.Int64
		var wg sync.WaitGroup
		const workers = 10
		for w := range workers {
			c := New(newClient(t, rdb), nil)
			wg.Go(func() {
				for i := w; i < len(updates); i += workers {
					u := updates[i]
					if i%3 == 0 {
						ok, err := c.UpdateMany(ctx, table, []DirtyValue{{u.id, u.v}})
						if err != nil {
							t.Error(err)
							return
						}
						if ok[0] {
							rose.Add(1)
						}
						continue
					}
					ok, err := c.Update(ctx, table, u.id, u.v)
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						rose.Add(1)
					}
				}
			})
		}
		wg.Wait()
		for id, v := range want {
			got, err := rdb.Get(ctx, must1(table.ValueKey(id))).Result()
			if err != nil || got != strconv.FormatInt(v, 10) {
				t.Fatalf("%s = %q (%v), want %d", id, got, err, v)
			}
		}
		if rose.Load() < ids {
			t.Fatalf("only %d updates rose", rose.Load())
		}

		// Drain hands every dirty id over once with its final value; a
		// failed write puts the batch back.
		c := New(rdb, nil)
		failed := errors.New("database down")
		if _, err := c.Drain(ctx, table, 3, func(context.Context, []DirtyValue) error { return failed }); !errors.Is(err, failed) {
			t.Fatalf("drain with a failing write: %v", err)
		}
		seen := map[string]int64{}
		n, err := c.Drain(ctx, table, 3, func(_ context.Context, batch []DirtyValue) error {
			if len(batch) > 3 {
				t.Errorf("batch of %d", len(batch))
			}
			for _, d := range batch {
				if _, dup := seen[d.ID]; dup {
					t.Errorf("%s drained twice", d.ID)
				}
				seen[d.ID] = d.Value
			}
			return nil
		})
		if err != nil || n != ids {
			t.Fatalf("drained %d, %v", n, err)
		}
		for id, v := range want {
			if seen[id] != v {
				t.Fatalf("drained %s = %d, want %d", id, seen[id], v)
			}
		}
		if n, err := c.Drain(ctx, table, 3, func(context.Context, []DirtyValue) error { return nil }); n != 0 || err != nil {
			t.Fatalf("second drain: %d, %v", n, err)
		}
		// Lower values do not mark anything dirty again.
		if ok, err := c.Update(ctx, table, "sensor-1", want["sensor-1"]-1); ok || err != nil {
			t.Fatalf("lower update rose=%v err=%v", ok, err)
		}
		if n, _ := c.Drain(ctx, table, 3, func(context.Context, []DirtyValue) error { return nil }); n != 0 {
			t.Fatalf("lower update marked dirty")
		}
	})
}

func TestMaxUpdateErrors(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		id := tagged(t)
		val, dirty := Key("mx", id, "v"), Key("mx", id, "dirty")
		text, hash := Key("mx", id, "text"), Key("mx", id, "hash")
		rdb.Set(ctx, text, "1.5", time.Minute)
		rdb.HSet(ctx, hash, "a", "1")
		rdb.Expire(ctx, hash, time.Minute)
		before := snapshot(t, rdb, val, dirty, text, hash)
		for _, tc := range []struct {
			name string
			err  error
			want error
		}{
			{"cross slot", second(c.MaxUpdate(ctx, val, Key("mx", id+"o", "dirty"), "m", 1)), ErrCrossSlot},
			{"non-integer value", second(c.MaxUpdate(ctx, text, dirty, "m", 1)), ErrWrongType},
			{"hash value", second(c.MaxUpdate(ctx, hash, dirty, "m", 1)), ErrWrongType},
			{"dirty is a hash", second(c.MaxUpdate(ctx, val, hash, "m", 1)), ErrWrongType},
			{"empty member", second(c.MaxUpdate(ctx, val, dirty, "", 1)), ErrInvalidArgument},
			{"empty key", second(c.MaxUpdate(ctx, "", dirty, "m", 1)), ErrInvalidArgument},
			{"table name", second(c.Update(ctx, MaxTable{Name: "a{b", Shards: 1}, "x", 1)), ErrInvalidArgument},
			{"table shards", second(c.Update(ctx, MaxTable{Name: "a", Shards: 0}, "x", 1)), ErrInvalidArgument},
			{"drain batch", second(c.Drain(ctx, MaxTable{Name: "a", Shards: 1}, 0, nil)), ErrInvalidArgument},
		} {
			if !errors.Is(tc.err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
			}
		}
		if !equal(before, snapshot(t, rdb, val, dirty, text, hash)) {
			t.Fatal("a refused call wrote to Redis")
		}
		// Existing values in other spellings of integers compare exactly.
		rdb.Set(ctx, val, "007", time.Minute)
		if rose, err := c.MaxUpdate(ctx, val, dirty, "m", 7); rose || err != nil {
			t.Fatalf("7 over 007: rose=%v %v", rose, err)
		}
		if rose, err := c.MaxUpdate(ctx, val, dirty, "m", 8); !rose || err != nil {
			t.Fatalf("8 over 007: rose=%v %v", rose, err)
		}
		if ttl := rdb.PTTL(ctx, val).Val(); ttl <= 0 {
			t.Fatalf("MaxUpdate dropped the TTL (%v)", ttl)
		}
		// A dirty set of the wrong type only matters when it would be
		// written: a value that does not rise leaves both keys alone.
		kept := snapshot(t, rdb, val, hash)
		if rose, err := c.MaxUpdate(ctx, val, hash, "m", 1); rose || err != nil {
			t.Fatalf("lower value with a wrong-type dirty set: rose=%v %v", rose, err)
		}
		if rose, err := c.MaxUpdate(ctx, val, hash, "m", 100); rose || !errors.Is(err, ErrWrongType) {
			t.Fatalf("higher value with a wrong-type dirty set: rose=%v %v, want ErrWrongType", rose, err)
		}
		if !equal(kept, snapshot(t, rdb, val, hash)) {
			t.Fatal("a refused or lower update wrote to Redis")
		}
		rdb.Del(ctx, val, dirty)
	})
}
