// Package broken does not type-check; slotlint must say so, not crash.
package broken

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Bad(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, "a:"+id, "b:"+undefinedName)
	var n int = "not a number"
	_ = n
}
