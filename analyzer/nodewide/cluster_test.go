package nodewide_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestClusterClientReachesOneMaster checks on a 3-master cluster of its
// own (FLUSHDB must not empty the shared one) what the rule says of
// go-redis's cluster client: KEYS, a SCAN loop, FUNCTION LOAD, DELETE and
// FLUSH and CONFIG SET reach one master with or without the
// request-policy resolver; FLUSHDB and FLUSHALL reach one without it and
// every master with it; DBSIZE counts every master's keys.
func TestClusterClientReachesOneMaster(t *testing.T) {
	pc := redistest.StartCluster(t)
	ctx := context.Background()
	for _, policies := range []bool{false, true} {
		t.Run(fmt.Sprintf("policies=%v", policies), func(t *testing.T) {
			c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: pc.Addrs()})
			t.Cleanup(func() { c.Close() })
			if policies {
				c.SetCommandInfoResolver(c.NewDynamicResolver())
			}
			const n = keyCount
			fillKeys(t, ctx, c)
			if got := c.DBSize(ctx).Val(); got != n {
				t.Errorf("DBSIZE: %d, want all %d (not reported)", got, n)
			}
			keys, err := c.Keys(ctx, "k:*").Result()
			if err != nil || len(keys) >= n {
				t.Errorf("KEYS: %d of %d keys, %v; want fewer (one master's, or none)", len(keys), n, err)
			}
			scanned := 0
			var cursor uint64
			for range 1000 {
				page, next, err := c.Scan(ctx, cursor, "k:*", 50).Result()
				if err != nil {
					t.Fatal(err)
				}
				scanned += len(page)
				if cursor = next; cursor == 0 {
					break
				}
			}
			if scanned == 0 || scanned >= n {
				t.Errorf("SCAN loop: %d of %d keys, want one master's", scanned, n)
			}

			lib := fmt.Sprintf("#!lua name=nw%v\nredis.register_function('nwget%v', function(keys) return redis.call('GET', keys[1]) end)", policies, policies)
			if err := c.FunctionLoadReplace(ctx, lib).Err(); err != nil {
				t.Fatal(err)
			}
			if missing := functionMissing(t, ctx, c, fmt.Sprintf("nwget%v", policies)); missing == 0 || missing == 30 {
				t.Errorf("FUNCTION LOAD: FCALL found no function for %d of 30 keys, want some (the other masters')", missing)
			}

			// CONFIG SET, FUNCTION DELETE and FUNCTION FLUSH change one
			// master, whatever the resolver: counted on each master.
			masters := func(f func(m *redis.Client) bool) int {
				t.Helper()
				var n atomic.Int32
				if err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
					if f(m) {
						n.Add(1)
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				return int(n.Load())
			}
			onEach := func(f func(m *redis.Client) error) {
				t.Helper()
				if err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error { return f(m) }); err != nil {
					t.Fatal(err)
				}
			}
			onEach(func(m *redis.Client) error { return m.ConfigSet(ctx, "notify-keyspace-events", "").Err() })
			if err := c.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err(); err != nil {
				t.Fatal(err)
			}
			if n := masters(func(m *redis.Client) bool {
				return m.ConfigGet(ctx, "notify-keyspace-events").Val()["notify-keyspace-events"] != ""
			}); n != 1 {
				t.Errorf("CONFIG SET: set on %d of 3 masters, want 1", n)
			}
			onEach(func(m *redis.Client) error { return m.ConfigSet(ctx, "notify-keyspace-events", "").Err() })
			hasLib := func(m *redis.Client) bool { return len(m.FunctionList(ctx, redis.FunctionListQuery{}).Val()) > 0 }
			for name, remove := range map[string]func() error{
				"FUNCTION DELETE": func() error { return c.FunctionDelete(ctx, fmt.Sprintf("nw%v", policies)).Err() },
				"FUNCTION FLUSH":  func() error { return c.FunctionFlush(ctx).Err() },
			} {
				onEach(func(m *redis.Client) error { return m.FunctionLoadReplace(ctx, lib).Err() })
				if err := remove(); err != nil {
					t.Fatal(err)
				}
				if n := masters(hasLib); n != 2 {
					t.Errorf("%s: the library is still on %d of 3 masters, want 2", name, n)
				}
			}

			for _, flush := range []func() error{
				func() error { return c.FlushDB(ctx).Err() },
				func() error { return c.FlushAll(ctx).Err() },
			} {
				fillKeys(t, ctx, c)
				if err := flush(); err != nil {
					t.Fatal(err)
				}
				switch kept := keysLeft(t, ctx, c); {
				case policies && kept != 0:
					t.Errorf("flush with the resolver: %d of %d keys kept, want none (every master, not reported)", kept, n)
				case !policies && (kept == 0 || kept == n):
					t.Errorf("flush without the resolver: %d of %d keys kept, want the other masters'", kept, n)
				}
			}
			if err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
				return m.FunctionFlush(ctx).Err()
			}); err != nil && !errors.Is(err, redis.Nil) {
				t.Fatal(err)
			}
		})
	}
}
