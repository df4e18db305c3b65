package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
)

// flushScripts empties the script cache of every server behind rdb.
func flushScripts(t testing.TB, rdb redis.UniversalClient) {
	t.Helper()
	ctx := context.Background()
	var err error
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return n.ScriptFlush(ctx).Err() })
	} else {
		err = rdb.ScriptFlush(ctx).Err()
	}
	if err != nil {
		t.Fatalf("SCRIPT FLUSH: %v", err)
	}
}

// eachServer runs f on every server behind rdb: the masters of a cluster.
func eachServer(t testing.TB, rdb redis.UniversalClient, f func(n *redis.Client)) {
	t.Helper()
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		err := cc.ForEachMaster(context.Background(), func(_ context.Context, n *redis.Client) error {
			mu.Lock()
			defer mu.Unlock()
			f(n)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	f(rdb.(*redis.Client))
}

// idsOnEveryMaster returns ids whose Key family lands on each master.
func idsOnEveryMaster(t testing.TB, rdb redis.UniversalClient, base string) []string {
	t.Helper()
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return []string{base}
	}
	seen := map[string]string{}
	for i := 0; len(seen) < 3 && i < 1000; i++ {
		id := fmt.Sprintf("%s%d", base, i)
		n, err := cc.MasterForKey(context.Background(), Key("x", id))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := seen[n.Options().Addr]; !ok {
			seen[n.Options().Addr] = id
		}
	}
	if len(seen) != 3 {
		t.Fatalf("found ids on %d masters", len(seen))
	}
	var ids []string
	for _, id := range seen {
		ids = append(ids, id)
	}
	return ids
}

func TestNoScriptRecovery(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		hooks := &recordingHooks{}
		c := New(rdb, &Options{Hooks: hooks})
		flushScripts(t, rdb)
		for _, id := range idsOnEveryMaster(t, rdb, tagged(t)) {
			l, err := c.Obtain(ctx, Key("ns", id, "lock"), time.Second, nil)
			if err != nil {
				t.Fatalf("obtain after SCRIPT FLUSH: %v", err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatalf("release after SCRIPT FLUSH: %v", err)
			}
		}
		hooks.mu.Lock()
		reloads := hooks.reloads["obtain"]
		hooks.mu.Unlock()
		if reloads == 0 {
			t.Fatal("no NOSCRIPT reload reported")
		}
		// Every master that served a lock has the script again.
		eachServer(t, rdb, func(n *redis.Client) {
			ok, err := n.ScriptExists(ctx, obtainScript.SHA1(), releaseScript.SHA1()).Result()
			if err != nil || !ok[0] || !ok[1] {
				t.Errorf("%s: scripts loaded %v, %v", n.Options().Addr, ok, err)
			}
		})
	})
}

// TestPipelineNoScript shows on the real servers that go-redis's Script.Run
// does not recover from NOSCRIPT inside a pipeline, and that RunPipelined
// (through UpdateMany) does, on every shard.
func TestPipelineNoScript(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		key := Key("pl", tagged(t), "v")
		flushScripts(t, rdb)
		pipe := rdb.Pipeline()
		cmd := redis.NewScript(maxUpdateScript.Source()).Run(ctx, pipe, []string{key, key + ":d"}, 1, "m")
		pipe.Exec(ctx)
		if !isNoScript(cmd.Err()) {
			t.Fatalf("Script.Run in a pipeline after SCRIPT FLUSH: %v; expected NOSCRIPT", cmd.Err())
		}

		flushScripts(t, rdb)
		hooks := &recordingHooks{}
		c := New(rdb, &Options{Hooks: hooks})
		table := MaxTable{Name: "pl-" + tagged(t), Shards: 16}
		var updates []DirtyValue
		for i := range 60 {
			updates = append(updates, DirtyValue{ID: fmt.Sprintf("id%d", i), Value: int64(i)})
		}
		rose, err := c.UpdateMany(ctx, table, updates)
		if err != nil {
			t.Fatalf("UpdateMany after SCRIPT FLUSH: %v", err)
		}
		for i, r := range rose {
			if !r {
				t.Fatalf("update %d did not rise", i)
			}
			if v := rdb.Get(ctx, must1(table.ValueKey(updates[i].ID))).Val(); v != fmt.Sprint(i) {
				t.Fatalf("%s = %q", updates[i].ID, v)
			}
		}
		hooks.mu.Lock()
		reloads := hooks.reloads["max_update"]
		hooks.mu.Unlock()
		if reloads != 1 {
			t.Fatalf("%d reloads reported for one pipeline, want 1", reloads)
		}
		n, err := c.Drain(ctx, table, 100, func(context.Context, []DirtyValue) error { return nil })
		if err != nil || n != len(updates) {
			t.Fatalf("drained %d, %v", n, err)
		}
		for _, u := range updates {
			rdb.Del(ctx, must1(table.ValueKey(u.ID)))
		}
	})
}

func TestRunPipelinedErrors(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		id := tagged(t)
		text := Key("rp", id, "text")
		rdb.Set(ctx, text, "x", time.Minute)
		cmds, err := c.RunPipelined(ctx, []Call{
			{Script: decrementScript, Keys: []string{text}, Args: []any{1}},
			{Script: decrementScript, Keys: []string{Key("rp", id, "missing")}, Args: []any{1}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := cmds[0].Err(); !strings.Contains(fmt.Sprint(err), "wrong kind") {
			t.Errorf("call 0: %v", err)
		}
		if err := cmds[1].Err(); !strings.Contains(fmt.Sprint(err), "does not exist") {
			t.Errorf("call 1: %v", err)
		}
		if _, err := c.RunPipelined(ctx, []Call{{Script: decrementScript, Keys: []string{Key("a", "1"), Key("a", "2")}}}); err == nil {
			t.Error("cross-slot call accepted")
		}
		if _, err := c.RunPipelined(ctx, []Call{{Script: decrementScript}}); err == nil {
			t.Error("call without keys accepted")
		}
	})
}

func TestPreload(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		flushScripts(t, rdb)
		if err := New(rdb, nil).Preload(ctx); err != nil {
			t.Fatal(err)
		}
		var shas []string
		for _, s := range Scripts() {
			shas = append(shas, s.SHA1())
		}
		servers := 0
		eachServer(t, rdb, func(n *redis.Client) {
			servers++
			ok, err := n.ScriptExists(ctx, shas...).Result()
			if err != nil {
				t.Fatal(err)
			}
			for i, loaded := range ok {
				if !loaded {
					t.Errorf("%s: script %s not loaded", n.Options().Addr, Scripts()[i].Name())
				}
			}
		})
		if _, isCluster := rdb.(*redis.ClusterClient); isCluster && servers != 3 {
			t.Fatalf("checked %d masters", servers)
		}
	})
}

// TestScriptKeysShareSlotOnCluster runs every operation on the cluster,
// records the keys of each script call and asks the cluster for their
// slots: every call's keys are in one slot.
func TestScriptKeysShareSlotOnCluster(t *testing.T) {
	rdb := redistest.Cluster(t)
	ctx := context.Background()
	rec := &keyRecorder{calls: map[string][][]string{}}
	rdb.AddHook(rec)
	c := New(rdb, nil)
	id := tagged(t)
	key, state := Key("all", id, "lock"), Key("all", id, "state")

	l, err := c.LockAndSet(ctx, key, time.Second, StateWrite{Key: state, Field: "f", Value: "1", TTL: time.Minute}, nil)
	must(t, err)
	re, err := c.Obtain(ctx, key, time.Second, &ObtainOptions{Token: l.Token()})
	must(t, err)
	must(t, re.SetState(ctx, StateWrite{Key: state, Field: "f", Value: "2", TTL: time.Minute}))
	must(t, re.Refresh(ctx, time.Second))
	must(t, re.Release(ctx))
	must(t, l.Release(ctx))
	table := MaxTable{Name: "all-" + id, Shards: 4}
	_, err = c.Update(ctx, table, "a", 5)
	must(t, err)
	_, err = c.UpdateMany(ctx, table, []DirtyValue{{"b", 1}, {"c", 2}})
	must(t, err)
	stock := Key("all", id, "stock")
	must(t, rdb.Set(ctx, stock, 3, time.Minute).Err())
	_, err = c.DecrementIfAvailable(ctx, stock, 1)
	must(t, err)
	_, err = c.IssueOnce(ctx, Key("all", id, "issued"), "u", 2)
	must(t, err)
	_, _, err = c.IncrWindow(ctx, Key("all", id, "hits"), 1, time.Minute)
	must(t, err)
	_, err = c.Drain(ctx, table, 10, func(context.Context, []DirtyValue) error { return nil })
	must(t, err)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, s := range Scripts() {
		calls := rec.calls[s.SHA1()]
		if len(calls) == 0 {
			t.Errorf("script %s never ran", s.Name())
		}
		for _, keys := range calls {
			if len(keys) == 0 {
				t.Fatalf("script %s called without keys", s.Name())
			}
			slots := redistest.KeySlots(t, keys)
			for _, sl := range slots[1:] {
				if sl != slots[0] {
					t.Errorf("script %s keys %q in slots %v", s.Name(), keys, slots)
				}
			}
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// keyRecorder records the KEYS of every EVALSHA/EVAL by script digest.
type keyRecorder struct {
	mu    sync.Mutex
	calls map[string][][]string
}

func (r *keyRecorder) DialHook(next redis.DialHook) redis.DialHook { return next }
func (r *keyRecorder) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		r.record(cmd)
		return next(ctx, cmd)
	}
}
func (r *keyRecorder) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			r.record(cmd)
		}
		return next(ctx, cmds)
	}
}

func (r *keyRecorder) record(cmd redis.Cmder) {
	args := cmd.Args()
	if len(args) < 3 || (cmd.Name() != "evalsha" && cmd.Name() != "eval") {
		return
	}
	sha := fmt.Sprint(args[1])
	if cmd.Name() == "eval" {
		for _, s := range Scripts() {
			if s.Source() == sha {
				sha = s.SHA1()
			}
		}
	}
	n, _ := args[2].(int)
	var keys []string
	for i := 0; i < n && 3+i < len(args); i++ {
		keys = append(keys, fmt.Sprint(args[3+i]))
	}
	r.mu.Lock()
	r.calls[sha] = append(r.calls[sha], keys)
	r.mu.Unlock()
}

// TestRunPipelinedEachScript calls every script of the package in one
// pipeline, in the form the package documentation gives, and then each in
// malformed forms: those fail before any round trip with
// ErrInvalidArgument or ErrCrossSlot, never with a Lua error from Redis.
func TestRunPipelinedEachScript(t *testing.T) {
	servers(t, func(t *testing.T, rdb redis.UniversalClient) {
		ctx := context.Background()
		c := New(rdb, nil)
		id := tagged(t)
		lock, state := Key("rpe", id, "lock"), Key("rpe", id, "state")
		lock2 := Key("rpe", id, "lock2")
		stock, pool := Key("rpe", id, "stock"), Key("rpe", id, "pool")
		value, dirty := Key("rpe", id, "v"), Key("rpe", id, "dirty")
		hits := Key("rpe", id, "hits")
		rdb.Set(ctx, stock, 5, time.Minute)
		good := map[string]Call{
			"obtain":       {Script: obtainScript, Keys: []string{lock, FencingKey(lock), WakeKey(lock)}, Args: []any{"tok", 10_000, "-", 3000, 100}},
			"refresh":      {Script: refreshScript, Keys: []string{lock}, Args: []any{"tok", 20_000}},
			"set_state":    {Script: setStateScript, Keys: []string{lock, state}, Args: []any{"tok", 1, "f", "v", 60_000}},
			"release":      {Script: releaseScript, Keys: []string{lock, FencingKey(lock), WakeKey(lock)}, Args: []any{"tok", 100}},
			"lock_and_set": {Script: lockAndSetScript, Keys: []string{lock2, FencingKey(lock2), state, WakeKey(lock2)}, Args: []any{"tok2", 10_000, "g", "", 60_000, "-", 3000, 100}},
			"max_update":   {Script: maxUpdateScript, Keys: []string{value, dirty}, Args: []any{"123456789012345678901234567890", "item"}},
			"decrement":    {Script: decrementScript, Keys: []string{stock}, Args: []any{2}},
			"issue_once":   {Script: issueOnceScript, Keys: []string{pool}, Args: []any{"user", 3}},
			"count_window": {Script: countWindowScript, Keys: []string{hits}, Args: []any{2, 60_000}},
		}
		order := []string{"obtain", "refresh", "set_state", "release", "lock_and_set", "max_update", "decrement", "issue_once", "count_window"}
		if len(order) != len(Scripts()) {
			t.Fatalf("the test covers %d scripts of %d", len(order), len(Scripts()))
		}
		var calls []Call
		for _, name := range order {
			calls = append(calls, good[name])
		}
		cmds, err := c.RunPipelined(ctx, calls)
		if err != nil {
			t.Fatal(err)
		}
		for i, cmd := range cmds {
			if err := cmd.Err(); err != nil {
				t.Errorf("%s: %v", order[i], err)
			}
		}
		if v := rdb.Get(ctx, stock).Val(); v != "3" {
			t.Errorf("stock %q after the pipelined decrement, want 3", v)
		}
		rdb.Del(ctx, lock2)

		with := func(name string, edit func(*Call)) Call {
			call := good[name]
			call.Keys = slices.Clone(call.Keys)
			call.Args = slices.Clone(call.Args)
			edit(&call)
			return call
		}
		for name, bad := range map[string]Call{
			"no script":             {Keys: []string{lock}},
			"zero script":           {Script: &Script{}, Keys: []string{lock}},
			"obtain one key":        with("obtain", func(c *Call) { c.Keys = c.Keys[:1] }),
			"obtain own counter":    with("obtain", func(c *Call) { c.Keys[1] = lock + ":fence" }),
			"obtain no TTL":         with("obtain", func(c *Call) { c.Args[1] = 0 }),
			"obtain TTL text":       with("obtain", func(c *Call) { c.Args[1] = "10s" }),
			"obtain Duration TTL":   with("obtain", func(c *Call) { c.Args[1] = 10 * time.Second }),
			"obtain empty token":    with("obtain", func(c *Call) { c.Args[0] = "" }),
			"obtain queue place":    with("obtain", func(c *Call) { c.Args[2] = "x" }),
			"obtain 4 args":         with("obtain", func(c *Call) { c.Args = c.Args[:4] }),
			"obtain float hold":     with("obtain", func(c *Call) { c.Args[3] = 1.5 }),
			"obtain no window":      with("obtain", func(c *Call) { c.Args[4] = 0 }),
			"obtain queue key":      with("obtain", func(c *Call) { c.Keys[2] = lock + ":q" }),
			"release queue key":     with("release", func(c *Call) { c.Keys[2] = lock + ":w" }),
			"release 3 args":        with("release", func(c *Call) { c.Args = append(c.Args, "0") }),
			"lock_and_set queue":    with("lock_and_set", func(c *Call) { c.Keys[3] = WakeKey(lock) }),
			"refresh negative":      with("refresh", func(c *Call) { c.Args[1] = -5 }),
			"set_state fence 0":     with("set_state", func(c *Call) { c.Args[1] = 0 }),
			"set_state __fence":     with("set_state", func(c *Call) { c.Args[2] = "__fence" }),
			"set_state cross slot":  with("set_state", func(c *Call) { c.Keys[1] = Key("rpe", id+"x", "state") }),
			"lock_and_set state 0":  with("lock_and_set", func(c *Call) { c.Args[4] = 0 }),
			"max_update not number": with("max_update", func(c *Call) { c.Args[0] = "12a" }),
			"max_update no member":  with("max_update", func(c *Call) { c.Args[1] = "" }),
			"decrement zero":        with("decrement", func(c *Call) { c.Args[0] = 0 }),
			"decrement 10^15":       with("decrement", func(c *Call) { c.Args[0] = int64(1_000_000_000_000_000) }),
			"decrement two keys":    with("decrement", func(c *Call) { c.Keys = append(c.Keys, stock) }),
			"issue_once no cap":     with("issue_once", func(c *Call) { c.Args[1] = 0 }),
			"issue_once nil user":   with("issue_once", func(c *Call) { c.Args[0] = nil }),
			"count_window zero":     with("count_window", func(c *Call) { c.Args[0] = 0 }),
			"count_window window 0": with("count_window", func(c *Call) { c.Args[1] = 0 }),
		} {
			before := snapshot(t, rdb, lock, stock, pool, state)
			_, err := c.RunPipelined(ctx, []Call{good["decrement"], bad})
			if !errors.Is(err, ErrInvalidArgument) && !errors.Is(err, ErrCrossSlot) {
				t.Errorf("%s: %v, want ErrInvalidArgument or ErrCrossSlot", name, err)
			}
			if !strings.HasPrefix(fmt.Sprint(err), "call 1: ") {
				t.Errorf("%s: %v does not name the call", name, err)
			}
			if !equal(before, snapshot(t, rdb, lock, stock, pool, state)) {
				t.Errorf("%s: a rejected batch wrote to Redis", name)
			}
		}
	})
}
