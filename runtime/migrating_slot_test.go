package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// TestScriptsInMigratingSlot runs, on the master that is moving a slot
// away (MIGRATING, every key still there, so the master runs the script),
// the two script paths that replace something they had removed: a release
// that hands the lock to the caller queued next (the lock hash becomes
// the reservation) and an Obtain that renews the place of the queue's
// only caller. Redis counts a key the script deleted or emptied as moved
// away, and stops the script at the next command on it ("non local key"),
// with the writes before that kept. The scripts must never do that.
func TestScriptsInMigratingSlot(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a private cluster")
	}
	cl := redistest.StartCluster(t)
	ctx := context.Background()
	lock := Key("moving", tagged(t), "lock")
	fence, queue := FencingKey(lock), WakeKey(lock)
	s := slot.Slot(lock)
	var src, dst int
	for i, m := range cl.Masters {
		if cl.MasterOf(s) == m {
			src, dst = i, (i+1)%len(cl.Masters)
		}
	}
	srcNode, dstNode := cl.Masters[src].Client(t), cl.Masters[dst].Client(t)
	ids := make([]string, 2)
	for i, n := range []*redis.Client{srcNode, dstNode} {
		id, err := n.Do(ctx, "CLUSTER", "MYID").Text()
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	until := time.Now().Add(time.Minute).UnixMilli()
	setup := func(t *testing.T) {
		t.Helper()
		for _, k := range []string{lock, fence, queue} {
			if err := srcNode.Del(ctx, k).Err(); err != nil {
				t.Fatal(err)
			}
		}
		srcNode.HSet(ctx, lock, "owner", "holder", "count", 1, "fence", 5)
		srcNode.PExpire(ctx, lock, time.Minute)
		srcNode.Set(ctx, fence, 6, 0)
		srcNode.ZAdd(ctx, queue, redis.Z{Score: 6, Member: fmt.Sprintf("6:%d:waiter", until)})
		srcNode.PExpire(ctx, queue, time.Minute)
	}
	migrating := func(t *testing.T) {
		t.Helper()
		if err := dstNode.Do(ctx, "CLUSTER", "SETSLOT", s, "IMPORTING", ids[0]).Err(); err != nil {
			t.Fatal(err)
		}
		if err := srcNode.Do(ctx, "CLUSTER", "SETSLOT", s, "MIGRATING", ids[1]).Err(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			for _, n := range []*redis.Client{srcNode, dstNode} {
				n.Do(ctx, "CLUSTER", "SETSLOT", s, "STABLE")
			}
		})
	}
	run := func(sc *Script, keys []string, args ...any) ([]any, error) {
		v, err := srcNode.Eval(ctx, sc.Source(), keys, args...).Result()
		if err != nil {
			return nil, err
		}
		return v.([]any), nil
	}

	t.Run("release hands off", func(t *testing.T) {
		setup(t)
		migrating(t)
		got, err := run(releaseScript, []string{lock, fence, queue}, "holder", 500)
		if err != nil {
			t.Fatalf("release: %v", err)
		}
		if fmt.Sprint(got) != "[0 7 6]" {
			t.Errorf("release replied %v, want [0 7 6] (reserved for place 6 with fence 7)", got)
		}
		h, _ := srcNode.HGetAll(ctx, lock).Result()
		if len(h) != 3 || h["place"] != "6" || h["claimant"] != "waiter" || h["fence"] != "7" {
			t.Errorf("lock after the hand-off: %v, want the reservation {place 6, claimant waiter, fence 7}", h)
		}
	})
	t.Run("obtain renews the only place", func(t *testing.T) {
		srcNode.Do(ctx, "CLUSTER", "SETSLOT", s, "STABLE")
		dstNode.Do(ctx, "CLUSTER", "SETSLOT", s, "STABLE")
		setup(t)
		migrating(t)
		got, err := run(obtainScript, []string{lock, fence, queue}, "waiter", 1000, "6", 5000, 500)
		if err != nil {
			t.Fatalf("obtain: %v", err)
		}
		if len(got) != 6 || got[0] != int64(0) || got[2] != int64(6) {
			t.Errorf("obtain replied %v, want {0, pttl, 6, ...}: still queued at place 6", got)
		}
		members, _ := srcNode.ZRange(ctx, queue, 0, -1).Result()
		if len(members) != 1 || !strings.HasPrefix(members[0], "6:") || !strings.HasSuffix(members[0], ":waiter") || members[0] == fmt.Sprintf("6:%d:waiter", until) {
			t.Errorf("queue after the renewal: %v, want one renewed entry of place 6", members)
		}
	})
}
