//go:build linux

package tags

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func OnLinux(ctx context.Context, rdb *redis.Client) {
	rdb.Rename(ctx, "old", "new")
}
