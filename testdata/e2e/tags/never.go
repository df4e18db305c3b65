//go:build never

package tags

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Never(ctx context.Context, rdb *redis.Client) {
	rdb.Rename(ctx, "never:a", "never:b")
}
