// Package passthru moves keys its callers build: nothing to say by default,
// unresolved keys under -slotlint.strict.
package passthru

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Move(ctx context.Context, rdb redis.Cmdable, src, dst string) error {
	return rdb.Rename(ctx, src, dst).Err()
}
