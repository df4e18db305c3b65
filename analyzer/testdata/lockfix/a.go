package lockfix

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

const lockTTL = 30 * time.Second

func acquire(rdb *redis.Client, id, token string) bool {
	key := "lock:{" + id + "}"
	ok, err := rdb.SetNX(ctx, key, token, 0).Result() // want `SETNX of lock key "lock:\{" \+ id \+ "\}" sets no TTL`
	if err != nil || !ok {
		return false
	}
	rdb.Expire(ctx, key, lockTTL)
	return true
}

func acquireFor(rdb *redis.Client, key string, ttl time.Duration) bool {
	if !rdb.SetNX(ctx, key, 1, 0).Val() { // want `SETNX of lock key key sets no TTL`
		return false
	}
	_ = 0
	rdb.PExpire(ctx, key, ttl).Err()
	return true
}

// No fix: the duration is computed after the SETNX.
func computedLater(rdb *redis.Client, key string, base time.Duration) {
	if rdb.SetNX(ctx, key, 1, 0).Val() { // want `SETNX of lock key key sets no TTL`
		ttl := 2 * base
		rdb.Expire(ctx, key, ttl)
	}
}

// No fix: the EXPIRE's error is used.
func errorUsed(rdb *redis.Client, key string) error {
	if rdb.SetNX(ctx, key, 1, 0).Val() { // want `SETNX of lock key key sets no TTL`
		return rdb.Expire(ctx, key, time.Minute).Err()
	}
	return nil
}

func acquireArgs(rdb *redis.Client, id string) bool {
	key := "job:{" + id + "}"
	ok := rdb.SetArgs(ctx, key, 1, redis.SetArgs{Mode: "NX"}).Val() == "OK" // want `SET of lock key "job:\{" \+ id \+ "\}" sets no TTL`
	if ok {
		rdb.Expire(ctx, key, 2*lockTTL)
	}
	return ok
}

// No fix: deleting the guard would leave ok declared and not used, and the
// package would not compile.
func guardOnly(rdb *redis.Client, key string) {
	ok, _ := rdb.SetNX(ctx, key, 1, 0).Result() // want `SETNX of lock key key sets no TTL`
	if ok {
		rdb.Expire(ctx, key, lockTTL)
	}
}
