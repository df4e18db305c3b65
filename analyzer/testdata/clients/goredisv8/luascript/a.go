// Package luascript holds go-redis v8 scripts checked by the Lua checker.
package luascript

import (
	"context"

	"github.com/go-redis/redis/v8"
)

var ctx = context.Background()

var swap = redis.NewScript(`
local a = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], redis.call('GET', KEYS[2]))
return redis.call('SET', KEYS[2], a)
`)

func run(rdb *redis.Client, id string) {
	swap.Run(ctx, rdb, []string{"s:{" + id + "}:a"}) // want `^Script.Run passes 1 key but the script reads KEYS\[2\] \(Lua line 3\): it is nil there`
	swap.Run(ctx, rdb, []string{"s:{" + id + "}:a", "s:{" + id + "}:b"})
	rdb.Eval(ctx, `return redis.call('GET', 'k:{' .. ARGV[1] .. '}')`, []string{"k:{" + id + "}"}, id) // want `never reads KEYS\[1\]`
}
