// Package generic calls go-redis through type parameters.
package generic

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Both[C redis.Cmdable](ctx context.Context, c C, id string) {
	c.MGet(ctx, "a:"+id, "b:"+id)
}

type Cache[K ~string] struct{ rdb *redis.Client }

func (c Cache[K]) Get(ctx context.Context, k K) *redis.StringCmd { return c.rdb.Get(ctx, string(k)) }

func Pair[T any](ctx context.Context, rdb *redis.Client, v T, id string) {
	rdb.MGet(ctx, "{p}:"+id, "{p}:x")
}
