package lockcheck

import (
	"time"

	"github.com/redis/go-redis/v9"
)

// Shapes the analyzer must walk without failing: generics, recursion
// between helpers, variadic helpers, labels and goto, method values.

type gstore[T any] struct{ rdb *redis.Client }

func (s gstore[T]) take(key string) bool { return s.rdb.SetNX(ctx, key, 1, 0).Val() }

func generic[T any](rdb *redis.Client, key string, v T) {
	s := gstore[T]{rdb}
	if s.take(key) { // want `SETNX \(in take\) of lock key key sets no TTL`
		rdb.Expire(ctx, key, time.Second)
	}
}

func ping(rdb *redis.Client, key string, n int) {
	if n > 0 {
		pong(rdb, key, n-1)
	}
}

func pong(rdb *redis.Client, key string, n int) {
	ping(rdb, key, n)
	rdb.SetNX(ctx, key, 1, time.Second)
}

func delAll(rdb *redis.Client, keys ...string) { rdb.Del(ctx, keys...) }

func labels(rdb *redis.Client, key string) {
	i := 0
again:
	if !rdb.SetNX(ctx, key, 1, 0).Val() { // want `SETNX of lock key key sets no TTL and EXPIRE sets one`
		i++
		if i < 3 {
			goto again
		}
		return
	}
	set := rdb.Expire
	set(ctx, key, time.Second)
	rdb.Expire(ctx, key, time.Second)
	delAll(rdb, key) // variadic helpers are not followed
}

func switches(rdb *redis.Client, key string, v int64) {
	cur, _ := rdb.Get(ctx, key).Int64()
	switch {
	case cur < v:
		rdb.Set(ctx, key, v, 0) // want `SET of key depends on the GET before it`
	default:
	}
}
