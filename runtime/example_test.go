package runtime_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/runtime"
)

// The examples need a Redis server, so they are compiled but not run by go
// test; the package's tests cover the same behaviour against real servers.

func ExampleKey() {
	fmt.Println(runtime.Key("order", "42", "lock"))
	fmt.Println(runtime.Key("order", "42", "state"))
	fmt.Println(runtime.SameSlot(runtime.Key("order", "42", "lock"), runtime.Key("order", "42", "state")))
	// Output:
	// order:{42}:lock
	// order:{42}:state
	// <nil>
}

func ExampleSameSlot() {
	err := runtime.SameSlot("order:42:lock", "order:42:state")
	fmt.Println(errors.Is(err, runtime.ErrCrossSlot))
	// Output: true
}

func ExampleClient_Obtain() {
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:7000"}})
	locks := runtime.New(rdb, nil)

	// Wait at most five seconds for the lock.
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	lock, err := locks.Obtain(wctx, runtime.Key("order", "42", "lock"), 10*time.Second, nil)
	if errors.Is(err, runtime.ErrNotObtained) {
		log.Print("order 42 is busy")
		return
	}
	if err != nil {
		log.Fatal(err)
	}
	defer lock.Release(ctx)

	// Renew while working; stop the work the moment the lock is lost.
	work, err := lock.KeepAlive(ctx, &runtime.KeepAliveOptions{MaxHold: time.Minute})
	if err != nil {
		log.Fatal(err)
	}
	process(work, lock.Fence())
}

func process(ctx context.Context, fence int64) {}

func ExampleClient_LockAndSet() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	c := runtime.New(rdb, nil)

	id := "42"
	lock, err := c.LockAndSet(ctx, runtime.Key("order", id, "lock"), 30*time.Second, runtime.StateWrite{
		Key: runtime.Key("order", id, "state"), Field: "status", Value: "paying", TTL: time.Hour,
	}, &runtime.ObtainOptions{NoWait: true})
	if err != nil {
		log.Fatal(err)
	}
	// Later: refused with ErrLockLost if the lock expired meanwhile, or
	// ErrStaleFence if a newer holder wrote the state.
	err = lock.SetState(ctx, runtime.StateWrite{
		Key: runtime.Key("order", id, "state"), Field: "status", Value: "paid", TTL: time.Hour,
	})
	if err != nil {
		log.Print(err)
	}
	lock.Release(ctx)
}

func ExampleClient_Drain() {
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:7000"}})
	c := runtime.New(rdb, nil)
	var db *sql.DB // the system of record

	table := runtime.MaxTable{Name: "last_read", Shards: 64}
	if _, err := c.Update(ctx, table, "item-7", 1700000000); err != nil {
		log.Fatal(err)
	}

	// Periodically: write the raised values back, never lowering a row.
	_, err := c.Drain(ctx, table, 500, func(ctx context.Context, batch []runtime.DirtyValue) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for _, d := range batch {
			if _, err := tx.ExecContext(ctx,
				`UPDATE items SET last_read = $1 WHERE id = $2 AND last_read < $1`, d.Value, d.ID); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
	if err != nil {
		log.Print(err) // the failed batch is back in its dirty set
	}
}

func ExampleClient_DecrementIfAvailable() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	c := runtime.New(rdb, nil)

	left, err := c.DecrementIfAvailable(ctx, runtime.Key("sku", "123", "stock"), 2)
	switch {
	case errors.Is(err, runtime.ErrInsufficient):
		fmt.Println("sold out; left:", left)
	case errors.Is(err, runtime.ErrNotFound):
		fmt.Println("unknown product")
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Println("reserved; left:", left)
	}
}

func ExampleClient_IssueOnce() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	c := runtime.New(rdb, nil)

	_, err := c.IssueOnce(ctx, runtime.Key("coupon", "spring", "issued"), "user-9", 1000)
	switch {
	case errors.Is(err, runtime.ErrAlreadyIssued):
		fmt.Println("you already have one")
	case errors.Is(err, runtime.ErrExhausted):
		fmt.Println("all gone")
	case err != nil:
		log.Fatal(err)
	}
}

func ExampleClient_IncrWindow() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	c := runtime.New(rdb, nil)

	// At most 5 failed logins per account in 15 minutes; the counter
	// expires 15 minutes after the first failure, whatever happens to
	// this process.
	failures, left, err := c.IncrWindow(ctx, runtime.Key("login-failures", "account-7"), 1, 15*time.Minute)
	switch {
	case err != nil:
		log.Fatal(err)
	case failures > 5:
		fmt.Println("locked out; try again in", left.Round(time.Second))
	}
}

func ExampleClient_Preload() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:7000"}})
	if err := runtime.New(rdb, nil).Preload(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func ExampleClient_RunPipelined() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	c := runtime.New(rdb, nil)

	// Scripts() lists the package's scripts; any of them can be pipelined.
	var decrement *runtime.Script
	for _, s := range runtime.Scripts() {
		if s.Name() == "decrement" {
			decrement = s
		}
	}
	cmds, err := c.RunPipelined(ctx, []runtime.Call{
		{Script: decrement, Keys: []string{runtime.Key("sku", "1", "stock")}, Args: []any{1}},
		{Script: decrement, Keys: []string{runtime.Key("sku", "2", "stock")}, Args: []any{1}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, cmd := range cmds {
		fmt.Println(cmd.Err())
	}
}

// metrics counts lock events; a real one would feed Prometheus or OTel.
type metrics struct{ runtime.NopHooks }

func (metrics) ObtainDone(key string, attempts int, latency time.Duration, err error) {
	log.Printf("lock %s: %d attempts in %v: %v", key, attempts, latency, err)
}

func ExampleHooks() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	_ = runtime.New(rdb, &runtime.Options{Hooks: metrics{}})
}

// A MaxTable's keys, for calling MaxUpdate directly.
func ExampleMaxTable_Shard() {
	ctx := context.Background()
	c := runtime.New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"}), nil)
	t := runtime.MaxTable{Name: "lastread", Shards: 64}
	id := "item-42"
	shard, err := t.Shard(id)
	if err != nil {
		log.Fatal(err)
	}
	value, _ := t.ValueKey(id)    // lastread:{<shard>}:v:item-42
	dirty, _ := t.DirtyKey(shard) // lastread:{<shard>}:dirty
	if _, err := c.MaxUpdate(ctx, value, dirty, id, 1700); err != nil {
		log.Fatal(err)
	}
}

// Taking and releasing locks inside a pipeline: the lock scripts take the
// lock's fencing counter and queue as further keys.
func ExampleFencingKey() {
	ctx := context.Background()
	c := runtime.New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"}), nil)
	scripts := map[string]*runtime.Script{}
	for _, s := range runtime.Scripts() {
		scripts[s.Name()] = s
	}
	k := runtime.Key("order", "42", "lock")
	cmds, err := c.RunPipelined(ctx, []runtime.Call{
		// token, TTL in ms, "-" (does not queue), how long a queued caller
		// keeps its place in ms (unused here), hand-off window in ms
		{Script: scripts["obtain"], Keys: []string{k, runtime.FencingKey(k), runtime.WakeKey(k)}, Args: []any{"my-token", 10_000, "-", 3000, 100}},
		// token, hand-off window in ms
		{Script: scripts["release"], Keys: []string{k, runtime.FencingKey(k), runtime.WakeKey(k)}, Args: []any{"my-token", 100}},
	})
	if err != nil {
		log.Fatal(err) // a malformed call: ErrInvalidArgument, nothing sent
	}
	fmt.Println(cmds[0].(*redis.Cmd).Val()) // {1, fence, count, pttl} when taken
}
