package disabled

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// With -slotlint.disable=SL1002 only SL1001 remains.
func load(rdb *redis.Client, id string) {
	rdb.MGet(ctx, "a:"+id, "b:"+id)
	rdb.MGet(ctx, "user:1", "user:2") // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
}
