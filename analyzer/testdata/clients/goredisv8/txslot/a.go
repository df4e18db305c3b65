// Package txslot holds go-redis v8 transactions.
package txslot

import (
	"context"

	"github.com/go-redis/redis/v8"
)

var ctx = context.Background()

func txPipelined(rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "hits:"+id)
		p.Incr(ctx, "total:"+id) // want `TxPipelined transaction keys "hits:" \+ id and "total:" \+ id share no hash tag`
		return nil
	})
}

func txPipeline(rdb *redis.Client, id string) {
	pipe := rdb.TxPipeline()
	pipe.Set(ctx, "x:"+id, 1, 0)
	pipe.Set(ctx, "y:"+id, 1, 0) // want `TxPipeline transaction keys "x:" \+ id and "y:" \+ id share no hash tag`
	pipe.Exec(ctx)
}

func watch(rdb *redis.Client, id string) {
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "audit:"+id, 1, 0) // want `Watch transaction keys "balance:\{" \+ id \+ "\}" and "audit:" \+ id share no hash tag`
			return nil
		})
		return err
	}, "balance:{"+id+"}")
}
