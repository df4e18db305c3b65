package lockcheck

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// The classic: SETNX, then EXPIRE once it succeeded.
func setnxThenExpire(rdb *redis.Client, id, token string) bool {
	key := "lock:" + id
	ok, err := rdb.SetNX(ctx, key, token, 0).Result() // want `SETNX of lock key "lock:" \+ id sets no TTL and EXPIRE sets one on a later step: if the process dies in between, the lock never expires; set the TTL in the same command \(SetNX\(ctx, key, value, ttl\), SET NX PX\) or use runtime's Client.Obtain`
	if err != nil || !ok {
		return false
	}
	rdb.Expire(ctx, key, 10*time.Second)
	return true
}

func setArgsThenPExpire(rdb redis.UniversalClient, id string) {
	rdb.SetArgs(ctx, "job:{"+id+"}", 1, redis.SetArgs{Mode: "NX"}) // want `SET of lock key "job:\{" \+ id \+ "\}" sets no TTL and PEXPIRE sets one`
	rdb.PExpire(ctx, "job:{"+id+"}", 500*time.Millisecond)
}

func doSetnx(rdb *redis.ClusterClient, id string) {
	if rdb.Do(ctx, "SETNX", "lease:"+id, "me").Val() == int64(1) { // want `SETNX of lock key "lease:" \+ id sets no TTL and EXPIRE sets one`
		rdb.Do(ctx, "EXPIRE", "lease:"+id, 30)
	}
}

func doSetNX(rdb *redis.Client, id string) {
	if rdb.Do(ctx, "SET", "lease:"+id, "me", "NX").Err() == nil { // want `SET of lock key "lease:" \+ id sets no TTL and PEXPIRE sets one`
		rdb.PExpire(ctx, "lease:"+id, time.Second)
	}
	rdb.Do(ctx, "SET", "lease2:"+id, "me", "NX", "EX", 10)
	rdb.Expire(ctx, "lease2:"+id, time.Second)
}

// acquire is a helper; the EXPIRE at its call site is the bug.
func acquire(rdb *redis.Client, key string) bool {
	ok, _ := rdb.SetNX(ctx, key, 1, 0).Result()
	return ok
}

func viaHelper(rdb *redis.Client, id string) {
	if acquire(rdb, "task:"+id) { // want `SETNX \(in acquire\) of lock key "task:" \+ id sets no TTL and EXPIRE sets one`
		rdb.Expire(ctx, "task:"+id, time.Minute)
	}
}

// A retry loop: the EXPIRE of one iteration follows the SETNX.
func inLoop(rdb *redis.Client, key string, ttl time.Duration) {
	for i := 0; i < 3; i++ {
		if rdb.SetNX(ctx, key, 1, 0).Val() { // want `SETNX of lock key key sets no TTL`
			rdb.Expire(ctx, key, ttl)
			return
		}
	}
}

// Silent: the TTL is part of the SET.
func setnxWithTTL(rdb *redis.Client, key string, ttl time.Duration) {
	rdb.SetNX(ctx, key, 1, 10*time.Second)
	rdb.SetNX(ctx, key, 1, ttl)
	rdb.SetArgs(ctx, key, 1, redis.SetArgs{Mode: "NX", TTL: ttl})
	rdb.Do(ctx, "SET", key, 1, "NX", "PX", 3000)
	rdb.Expire(ctx, key, ttl) // extends a lock that had one already: not SL1301
}

// Silent: EXPIRE of another key, and an EXPIRE that only runs before the
// SETNX.
func otherKeys(rdb *redis.Client, a, b string) {
	rdb.SetNX(ctx, "lock:"+a, 1, 0)
	rdb.Expire(ctx, "lock:"+b, time.Second)

	rdb.Expire(ctx, "flag:"+a, time.Second)
	rdb.SetNX(ctx, "flag:"+a, 1, 0)
}

// Silent: an early return ends every path from the SETNX.
func earlyReturn(rdb *redis.Client, key string, fresh bool) {
	if fresh {
		rdb.SetNX(ctx, key, 1, 0)
		return
	}
	rdb.Expire(ctx, key, time.Second)
}

// Silent: MULTI/EXEC sends both or neither.
func inTransaction(rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, key, 1, 0)
		p.Expire(ctx, key, time.Second)
		return nil
	})
}

func suppressed(rdb *redis.Client, key string) {
	//slotlint:ignore SL1301 the key is a one-shot marker cleaned by a sweeper
	rdb.SetNX(ctx, key, 1, 0)
	rdb.Expire(ctx, key, time.Hour)
}

// A lock taken through an interface of the caller's own that lists
// go-redis's methods as they are: the commands are go-redis's.
type lockClient interface {
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.BoolCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *redis.BoolCmd
}

func lockThroughInterface(c lockClient, id, token string) bool {
	ok, err := c.SetNX(ctx, "iface:"+id, token, 0).Result() // want `SETNX of lock key "iface:" \+ id sets no TTL and EXPIRE sets one on a later step`
	if err != nil || !ok {
		return false
	}
	c.Expire(ctx, "iface:"+id, 10*time.Second)
	return true
}
