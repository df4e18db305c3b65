package luascript

import "github.com/redis/go-redis/v9"

var swap = redis.NewScript(`local v = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[2], v or '')
return v`)

// KEYS[2] is optional: the script checks #KEYS first.
var optional = redis.NewScript(`if #KEYS > 1 then redis.call('DEL', KEYS[2]) end
return redis.call('GET', KEYS[1])`)

var spread = redis.NewScript(`return redis.call('DEL', unpack(KEYS))`)

func keyCounts(rdb *redis.ClusterClient, id string, more []string) {
	a, b, c := "{"+id+"}:a", "{"+id+"}:b", "{"+id+"}:c"
	swap.Run(ctx, rdb, []string{a, b})
	swap.Run(ctx, rdb, []string{a})       // want `^Script.Run passes 1 key but the script reads KEYS\[2\] \(Lua line 2\): it is nil there`
	swap.Run(ctx, rdb, []string{a, b, c}) // want `^Script.Run passes 3 keys but the script never reads KEYS\[3\]`
	swap.Run(ctx, rdb, more)              // unknown count: silent
	spread.Run(ctx, rdb, []string{a, b, c})
	optional.Run(ctx, rdb, []string{a})
	optional.Run(ctx, rdb, []string{a, b})
	rdb.Eval(ctx, `return redis.call('GET', KEYS[1])`, []string{a, b}) // want `never reads KEYS\[2\]`
}
