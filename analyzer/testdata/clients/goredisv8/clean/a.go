// Package clean is go-redis v8 code slotlint must stay silent on.
package clean

import (
	"context"

	"github.com/go-redis/redis/v8"
)

var ctx = context.Background()

// A plain pipeline is not a transaction: each command is routed alone.
func pipelined(rdb *redis.ClusterClient, id string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "hits:"+id)
		p.Incr(ctx, "total:"+id)
		return nil
	})
	pipe := rdb.Pipeline()
	pipe.Get(ctx, "a")
	pipe.Get(ctx, "b")
	pipe.Exec(ctx)
}

// Keys that share a hash tag.
func tagged(rdb redis.UniversalClient, id string) {
	rdb.MGet(ctx, "user:{"+id+"}:name", "user:{"+id+"}:mail")
	rdb.Rename(ctx, "{job}:pending", "{job}:done")
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "c:{"+id+"}:hits")
		p.Expire(ctx, "c:{"+id+"}:hits", 0)
		return nil
	})
}

// mgetEach fetches keys of different slots one by one, as a cluster-safe
// MGET replacement does.
func mgetEach(rdb redis.UniversalClient, keys ...string) []string {
	var out []string
	for _, k := range keys {
		out = append(out, rdb.Get(ctx, k).Val())
	}
	return out
}

func useMGetEach(rdb redis.UniversalClient, id string) {
	mgetEach(rdb, "user:"+id, "order:"+id)
	rdb.Get(ctx, "single:"+id)
	rdb.Set(ctx, "single:"+id, 1, 0)
	rdb.HSet(ctx, "h:"+id, "f", 1)
}
