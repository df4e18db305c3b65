package strict

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

func load(rdb *redis.Client, keys []string, id, src, dst string) {
	rdb.Rename(ctx, src, dst)                                    // want `RENAME keys cannot be resolved statically \(src, dst are built elsewhere\)`
	rdb.MGet(ctx, keys...)                                       // want `MGET keys cannot be resolved statically \(no key could be followed\), so their slots are unchecked`
	rdb.Del(ctx, append([]string{"a:{" + id + "}"}, keys...)...) // want `DEL keys cannot be resolved statically \(only "a:\{" \+ id \+ "\}" known\)`
	rdb.MGet(ctx, "a:{"+id+"}", "b:{"+id+"}")                    // resolved: fine
	incr.Run(ctx, rdb, keys)                                     // want `EVALSHA keys cannot be resolved statically`
	rdb.Get(ctx, keys[0])                                        // one key: nothing to relate
}

var incr = redis.NewScript(`return 1`)

// A helper given its keys whole is judged at its callers: when every
// caller passes keys of one slot, they are resolved.
func movePair(rdb *redis.Client, src, dst string) {
	rdb.Rename(ctx, src, dst)
}

func movePairCaller(rdb *redis.Client, id string) {
	movePair(rdb, "{job:"+id+"}:a", "{job:"+id+"}:b")
}

// A caller that passes keys it was given whole leaves them unresolved.
func copyPair(rdb *redis.Client, src, dst string) {
	rdb.Rename(ctx, src, dst) // want `RENAME keys cannot be resolved statically \(src, dst are built elsewhere\)`
}

func copyPairCaller(rdb *redis.Client, src, dst string) {
	copyPair(rdb, src, dst)
}
