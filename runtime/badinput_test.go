package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestBadInputNeverPanics calls the API with inputs that used to panic (a
// table without shards, a Client on no go-redis client, a nil write
// function) and others of the same kind: each is ErrInvalidArgument before
// any round trip. No server is needed.
func TestBadInputNeverPanics(t *testing.T) {
	ctx := context.Background()
	var nilClient *redis.Client
	var nilCluster *redis.ClusterClient
	noRedis := []*Client{New(nil, nil), New(nilClient, nil), New(nilCluster, nil), {}, nil}
	// A client on a server that does not exist: only argument checks may
	// answer before it would be dialled.
	offline := New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 10 * time.Millisecond}), nil)
	good := MaxTable{Name: "t", Shards: 4}
	write := func(context.Context, []DirtyValue) error { return nil }

	cases := map[string]func() error{
		"ValueKey of 0 shards":     func() error { return second(MaxTable{Name: "t"}.ValueKey("a")) },
		"ValueKey of -3 shards":    func() error { return second(MaxTable{Name: "t", Shards: -3}.ValueKey("a")) },
		"ValueKey of 16385 shards": func() error { return second(MaxTable{Name: "t", Shards: 16385}.ValueKey("a")) },
		"ValueKey without name":    func() error { return second(MaxTable{Shards: 2}.ValueKey("a")) },
		"ValueKey of braced name":  func() error { return second(MaxTable{Name: "a{b}", Shards: 2}.ValueKey("a")) },
		"ValueKey of empty id":     func() error { return second(good.ValueKey("")) },
		"Shard of 0 shards":        func() error { return second(MaxTable{Name: "t"}.Shard("a")) },
		"Shard of -1 shards":       func() error { return second(MaxTable{Name: "t", Shards: -1}.Shard("a")) },
		"DirtyKey of 0 shards":     func() error { return second(MaxTable{Name: "t"}.DirtyKey(0)) },
		"DirtyKey of shard -1":     func() error { return second(good.DirtyKey(-1)) },
		"DirtyKey of shard 4 of 4": func() error { return second(good.DirtyKey(4)) },
		"Update of 0 shards":       func() error { return second(offline.Update(ctx, MaxTable{Name: "t"}, "a", 1)) },
		"UpdateMany of -1 shards": func() error {
			return second(offline.UpdateMany(ctx, MaxTable{Name: "t", Shards: -1}, []DirtyValue{{ID: "a"}}))
		},
		"Drain of 0 shards":         func() error { return second(offline.Drain(ctx, MaxTable{Name: "t"}, 10, write)) },
		"Drain with nil write":      func() error { return second(offline.Drain(ctx, good, 10, nil)) },
		"Release of a nil Lock":     func() error { return (*Lock)(nil).Release(ctx) },
		"Release of a zero Lock":    func() error { return (&Lock{}).Release(ctx) },
		"Refresh of a zero Lock":    func() error { return (&Lock{}).Refresh(ctx, time.Second) },
		"KeepAlive of a nil Lock":   func() error { return second((*Lock)(nil).KeepAlive(ctx, nil)) },
		"SetState of a zero Lock":   func() error { return (&Lock{}).SetState(ctx, StateWrite{Key: "s", Field: "f", TTL: time.Second}) },
		"RunPipelined of nil calls": func() error { return second(offline.RunPipelined(ctx, []Call{{}})) },
	}
	for i, c := range noRedis {
		for name, f := range map[string]func() error{
			"Obtain":               func() error { return second(c.Obtain(ctx, "k:{1}", time.Second, nil)) },
			"LockAndSet":           func() error { return second(c.LockAndSet(ctx, "k:{1}", time.Second, StateWrite{}, nil)) },
			"MaxUpdate":            func() error { return second(c.MaxUpdate(ctx, "v:{1}", "d:{1}", "m", 1)) },
			"Update":               func() error { return second(c.Update(ctx, good, "a", 1)) },
			"UpdateMany":           func() error { return second(c.UpdateMany(ctx, good, nil)) },
			"Drain":                func() error { return second(c.Drain(ctx, good, 1, write)) },
			"DecrementIfAvailable": func() error { return second(c.DecrementIfAvailable(ctx, "s", 1)) },
			"IssueOnce":            func() error { return second(c.IssueOnce(ctx, "p", "u", 1)) },
			"IncrWindow":           func() error { return incrWindowErr(c.IncrWindow(ctx, "w", 1, time.Second)) },
			"RunPipelined":         func() error { return second(c.RunPipelined(ctx, nil)) },
			"Preload":              func() error { return c.Preload(ctx) },
		} {
			cases[name+" of Client "+string(rune('0'+i))] = f
		}
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				err = f()
			}()
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("%v, want ErrInvalidArgument", err)
			}
		})
	}

	// The shard is the one whose keys the table's operations use.
	for _, id := range []string{"a", "b", "item-42"} {
		s, err := good.Shard(id)
		if err != nil || s < 0 || s >= good.Shards {
			t.Fatalf("Shard(%q) = %d, %v", id, s, err)
		}
		v, _ := good.ValueKey(id)
		d, _ := good.DirtyKey(s)
		if err := SameSlot(v, d); err != nil {
			t.Errorf("ValueKey(%q) %q and DirtyKey(Shard) %q: %v", id, v, d, err)
		}
	}
}
