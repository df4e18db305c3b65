package fix

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

func concat(rdb *redis.Client, id string) {
	rdb.MGet(ctx, "user:"+id+":name", "user:"+id+":email") // want `MGET keys .* share no hash tag`
	rdb.Del(ctx, "session:"+id, id+":tokens")              // want `DEL keys .* share no hash tag`
}

func format(rdb *redis.Client, id int) {
	rdb.SInterStore(ctx, fmt.Sprintf("common:%d", id), fmt.Sprintf("likes:%d:a", id), fmt.Sprintf("likes:%d:b", id)) // want `SINTERSTORE keys .* share no hash tag`
}

func noFix(rdb *redis.Client, a, b string) {
	rdb.MGet(ctx, "x:"+a, "y:"+b) // want `MGET keys .* share no hash tag`
}
