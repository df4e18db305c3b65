package nodewide_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestRingReachesOneShard checks on three servers of its own what the rule
// says of go-redis's Ring: a command with no key goes to one shard it
// picks, so KEYS and a SCAN page see one shard's keys, FLUSHDB and
// FLUSHALL empty one shard, FUNCTION LOAD, DELETE and FLUSH and CONFIG SET
// change one shard; DBSIZE too counts one shard's keys.
func TestRingReachesOneShard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	ctx := context.Background()
	shards := map[string]*redis.Client{}
	addrs := map[string]string{}
	for _, name := range []string{"a", "b", "c"} {
		srv := redistest.StartServer(t)
		addrs[name] = srv.Addr
		shards[name] = srv.Client(t)
	}
	ring := redis.NewRing(&redis.RingOptions{Addrs: addrs})
	t.Cleanup(func() { ring.Close() })

	const n = keyCount
	// on counts the shards for which f holds, asked of each server
	// directly.
	on := func(f func(s *redis.Client) bool) int {
		m := 0
		for _, s := range shards {
			if f(s) {
				m++
			}
		}
		return m
	}
	fillKeys(t, ctx, ring)
	if got := on(func(s *redis.Client) bool { return s.DBSize(ctx).Val() > 0 }); got != 3 {
		t.Fatalf("the ring put its keys on %d of 3 shards", got)
	}
	if got := ring.DBSize(ctx).Val(); got <= 0 || got >= n {
		t.Errorf("DBSIZE: %d of %d keys, want one shard's", got, n)
	}
	keys, err := ring.Keys(ctx, "k:*").Result()
	if err != nil || len(keys) == 0 || len(keys) >= n {
		t.Errorf("KEYS: %d of %d keys, %v; want one shard's", len(keys), n, err)
	}
	page, _, err := ring.Scan(ctx, 0, "k:*", 10*n).Result()
	if err != nil || len(page) == 0 || len(page) >= n {
		t.Errorf("SCAN with a page larger than every key: %d of %d keys, %v; want one shard's", len(page), n, err)
	}

	lib := "#!lua name=nwring\nredis.register_function('nwringget', function(keys) return redis.call('GET', keys[1]) end)"
	if err := ring.FunctionLoadReplace(ctx, lib).Err(); err != nil {
		t.Fatal(err)
	}
	if missing := functionMissing(t, ctx, ring, "nwringget"); missing == 0 || missing == 30 {
		t.Errorf("FUNCTION LOAD: FCALL found no function for %d of 30 keys, want some (the other shards')", missing)
	}

	for _, s := range shards {
		s.ConfigSet(ctx, "notify-keyspace-events", "")
	}
	if err := ring.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err(); err != nil {
		t.Fatal(err)
	}
	if got := on(func(s *redis.Client) bool {
		return s.ConfigGet(ctx, "notify-keyspace-events").Val()["notify-keyspace-events"] != ""
	}); got != 1 {
		t.Errorf("CONFIG SET: set on %d of 3 shards, want 1", got)
	}
	hasLib := func(s *redis.Client) bool { return len(s.FunctionList(ctx, redis.FunctionListQuery{}).Val()) > 0 }
	for name, remove := range map[string]func() error{
		"FUNCTION DELETE": func() error { return ring.FunctionDelete(ctx, "nwring").Err() },
		"FUNCTION FLUSH":  func() error { return ring.FunctionFlush(ctx).Err() },
	} {
		for _, s := range shards {
			if err := s.FunctionLoadReplace(ctx, lib).Err(); err != nil {
				t.Fatal(err)
			}
		}
		if err := remove(); err != nil {
			t.Fatal(err)
		}
		if got := on(hasLib); got != 2 {
			t.Errorf("%s: the library is still on %d of 3 shards, want 2", name, got)
		}
	}

	for name, flush := range map[string]func() error{
		"FLUSHDB":  func() error { return ring.FlushDB(ctx).Err() },
		"FLUSHALL": func() error { return ring.FlushAll(ctx).Err() },
	} {
		fillKeys(t, ctx, ring)
		if err := flush(); err != nil {
			t.Fatal(err)
		}
		if kept := keysLeft(t, ctx, ring); kept == 0 || kept == n {
			t.Errorf("%s: %d of %d keys kept, want the other shards'", name, kept, n)
		}
	}
}
