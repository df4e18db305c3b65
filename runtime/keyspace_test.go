package runtime

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/slot"
)

// TestLocksLeaveNoKeys takes 100,000 distinct locks once each, as locks per
// entity are used, half released and half left to expire: afterwards no key
// of theirs is left, and the fencing counters they used number no more than
// the slots, however many lock keys there were. Calls go out in pipelines
// of 1,000 locks (obtain, then release) to keep the test fast. Its point is
// the keyspace after that many locks, not concurrency (RunPipelined runs
// under -race in TestRunPipelinedEachScript and TestRunPipelinedErrors),
// so it runs without -race only.
func TestLocksLeaveNoKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 locks")
	}
	volumeTest(t)
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		const (
			locks = 100_000
			batch = 1_000
		)
		ctx := context.Background()
		c := New(rdb, nil)
		id := tagged(t)
		slots := map[int]bool{}
		var last int64
		for start := 0; start < locks; start += batch {
			var calls []Call
			for i := start; i < start+batch; i++ {
				key := Key("ks", id+strconv.Itoa(i), "lock")
				slots[slot.Slot(key)] = true
				ttl := 60_000
				if i%2 == 1 {
					ttl = 20 // left to expire
				}
				calls = append(calls, Call{Script: obtainScript, Keys: []string{key, fencingKey(key), WakeKey(key)}, Args: []any{"owner", ttl, "-", 3000, 100}})
				if i%2 == 0 {
					calls = append(calls, Call{Script: releaseScript, Keys: []string{key, fencingKey(key), WakeKey(key)}, Args: []any{"owner", 100}})
				}
			}
			cmds, err := c.RunPipelined(ctx, calls)
			if err != nil {
				t.Fatal(err)
			}
			for i, cmd := range cmds {
				if err := cmd.Err(); err != nil {
					t.Fatalf("call %d of batch %d: %v", i, start/batch, err)
				}
				if calls[i].Script == obtainScript {
					r, err := parseObtainReply(cmd.(*redis.Cmd).Val())
					if err != nil || !r.acquired {
						t.Fatalf("obtaining %v: %+v, %v", calls[i].Keys[0], r, err)
					}
					last = max(last, r.fence)
				}
			}
		}
		time.Sleep(100 * time.Millisecond) // the unreleased locks expire
		if left := keysMatching(t, rdb, "ks:{"+id+"*"); len(left) != 0 {
			t.Fatalf("%d keys left by %d locks, e.g. %q", len(left), locks, left[0])
		}
		counters := keysMatching(t, rdb, fencePrefix+"*")
		if len(counters) > slot.Count {
			t.Fatalf("%d fencing counters, more than the %d slots", len(counters), slot.Count)
		}
		for _, k := range counters[:min(len(counters), 100)] {
			if ttl := rdb.PTTL(ctx, k).Val(); ttl != -1 {
				t.Fatalf("fencing counter %q has TTL %v, want none", k, ttl)
			}
		}
		t.Logf("%d locks in %d slots left %d fencing counters in all (highest token %d)", locks, len(slots), len(counters), last)
	})
}

// TestFencingKeyTags pins the counters' names, which are part of the stored
// format (changing them would restart every lock's tokens), and checks that
// every slot has a counter in that slot.
func TestFencingKeyTags(t *testing.T) {
	tags := slotTags()
	for s, tag := range tags {
		if got := slot.Slot(tag); got != s {
			t.Fatalf("tag %q of slot %d hashes to %d", tag, s, got)
		}
	}
	for key, want := range map[string]string{
		"order:{42}:lock": "slotlint:fence:{" + tags[slot.Slot("42")] + "}",
		"a":               "slotlint:fence:{" + tags[slot.Slot("a")] + "}",
	} {
		if got := fencingKey(key); got != want || slot.Slot(got) != slot.Slot(key) {
			t.Errorf("fencingKey(%q) = %q (slot %d), want %q (slot %d)", key, got, slot.Slot(got), want, slot.Slot(key))
		}
	}
	// The first tags in counting order, as they must stay.
	for s, want := range map[int]string{slot.Slot("0"): "0", slot.Slot("1"): "1", slot.Slot("z"): "z", slot.Slot("10"): "10"} {
		if tags[s] != want {
			t.Errorf("slot %d has tag %q, want %q", s, tags[s], want)
		}
	}
}
