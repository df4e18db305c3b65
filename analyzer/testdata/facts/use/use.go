package use

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/slt/facts/keys"
)

var ctx = context.Background()

func load(rdb *redis.ClusterClient, id string, n int, now, later time.Time) {
	rdb.MGet(ctx, keys.User(id), keys.UserCart(id))      // same tag through the builders of another package
	rdb.MGet(ctx, keys.Flat(id), keys.User(id))          // want `MGET keys "flat:" \+ id and "user:\{" \+ id \+ "\}" share no hash tag`
	rdb.MGet(ctx, keys.User("1"), keys.User("2"))        // want `MGET keys "user:\{1\}" \(slot \d+\) and "user:\{2\}" \(slot \d+\) are in different slots`
	rdb.Del(ctx, keys.Num(n), "n:{"+strconv.Itoa(n)+"}") // the builder and an inline spelling agree
	rdb.MGet(ctx, keys.Branchy(id, true), keys.User(id)) // no summary: the first key is unresolved, silent without -strict
	rdb.MGet(ctx, keys.Daily(id, now), keys.Daily(id, later))
	rdb.MGet(ctx, keys.Daily(id, now), "x:"+id) // want `MGET keys "d:\{" \+ id \+ "\}:" \+ now.Format\("2006-01-02"\) and "x:" \+ id share no hash tag`
	rdb.MGet(ctx, local(id), keys.UserCart(id))
}

// local is a same-package builder, inlined.
func local(id string) string { return keys.User(id) + ":profile" }
