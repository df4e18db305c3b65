// Package scriptkeys holds go-redis v8 scripts with several keys.
package scriptkeys

import (
	"context"

	"github.com/go-redis/redis/v8"
)

var ctx = context.Background()

var incr = redis.NewScript(`return redis.call('INCR', KEYS[1]) + redis.call('INCR', KEYS[2])`)

func run(rdb *redis.Client, id string) {
	incr.Run(ctx, rdb, []string{"a:" + id, "b:" + id}) // want `EVALSHA keys "a:" \+ id and "b:" \+ id share no hash tag`
	incr.Run(ctx, rdb, []string{"a:{" + id + "}", "b:{" + id + "}"})
	rdb.Eval(ctx, "return redis.call('DEL', KEYS[1], KEYS[2])", []string{"a", "b"}) // want `EVAL keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	rdb.EvalSha(ctx, "0123456789abcdef0123456789abcdef01234567", nil)               // want `EvalSha called with zero keys`
}
