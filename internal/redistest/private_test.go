package redistest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestPrivateServerPauseResumeKill(t *testing.T) {
	s := StartServer(t)
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, ReadTimeout: 200 * time.Millisecond})
	defer c.Close()
	ctx := context.Background()
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	s.ConfigSet(t, "maxmemory", "1")
	if err := c.Set(ctx, "k2", "v", 0).Err(); err == nil || !isOOM(err) {
		t.Fatalf("SET under maxmemory 1: got %v, want an OOM error", err)
	}
	s.ConfigSet(t, "maxmemory", "0")

	s.Pause(t)
	err := c.Get(ctx, "k").Err()
	var nerr interface{ Timeout() bool }
	if !errors.As(err, &nerr) || !nerr.Timeout() {
		t.Fatalf("GET on a paused server: got %v, want a timeout", err)
	}
	s.Resume(t)
	// The timed-out connection was dropped; a new one sees the value.
	if v, err := c.Get(ctx, "k").Result(); err != nil || v != "v" {
		t.Fatalf("GET after resume: %q, %v", v, err)
	}

	s.Pause(t)
	s.Kill(t) // a stopped process dies too
	if err := c.Get(ctx, "k").Err(); err == nil {
		t.Fatal("GET on a killed server succeeded")
	}
}

func isOOM(err error) bool {
	return err != nil && len(err.Error()) >= 3 && err.Error()[:3] == "OOM"
}

func TestPrivateClusterRoutesByMasterOf(t *testing.T) {
	cl := StartCluster(t)
	c := cl.Client(t, nil)
	ctx := context.Background()
	for _, key := range []string{"a", "b", "c", "{user1}:x", "foo"} {
		slot, err := c.ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Set(ctx, key, "1", 0).Err(); err != nil {
			t.Fatalf("SET %s: %v", key, err)
		}
		// The master MasterOf names holds the key; a plain client of it
		// reads it without a MOVED reply.
		n := cl.MasterOf(int(slot)).Client(t)
		if v, err := n.Get(ctx, key).Result(); err != nil || v != "1" {
			t.Fatalf("key %q (slot %d) on %s: %q, %v", key, slot, cl.MasterOf(int(slot)).Addr, v, err)
		}
	}
	for _, edge := range []struct{ slot, master int }{{0, 0}, {5460, 0}, {5461, 1}, {10922, 2}, {16383, 2}} {
		if got := cl.MasterOf(edge.slot); got != cl.Masters[edge.master] {
			t.Errorf("MasterOf(%d) = %s, want master %d", edge.slot, got.Addr, edge.master)
		}
	}
}
