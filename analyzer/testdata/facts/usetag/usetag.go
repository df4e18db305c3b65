package usetag

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/slt/facts/keys"
)

func hot(ctx context.Context, rdb *redis.Client, id string, b []byte) {
	rdb.Get(ctx, keys.Run(b)+"{"+id+"}")      // hex before the tag: it cannot move
	rdb.Get(ctx, keys.Spaced(id)+":{"+id+"}") // a configurable prefix before the tag: only under -strict
	rdb.Get(ctx, "{hot}:"+keys.Flat(id))      // want `key "\{hot\}:flat:" \+ id has the constant hash tag \{hot\}`
	rdb.Get(ctx, keys.UserCart(id))
}
