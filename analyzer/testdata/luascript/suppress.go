package luascript

import "github.com/redis/go-redis/v9"

var silencedInGo = redis.NewScript(`local v = redis.call('GET', KEYS[1])
return v + 1`) //slotlint:ignore LUA304 the key always holds a number here

var silencedInLua = redis.NewScript(`local v = redis.call('GET', KEYS[1])
-- slotlint:ignore LUA304 the key always holds a number here
return v + 1`)

var notSilenced = redis.NewScript(`local v = redis.call('GET', KEYS[1])
return v + 1`) //slotlint:ignore LUA201 another rule // want `arithmetic`

func silenced(rdb *redis.ClusterClient, id string) {
	key := "{" + id + "}"
	silencedInGo.Run(ctx, rdb, []string{key})
	silencedInLua.Run(ctx, rdb, []string{key})
	notSilenced.Run(ctx, rdb, []string{key})
	derived.Run(ctx, rdb, []string{"job:" + id}, "me") //slotlint:ignore LUA202 jobs are on a single-node deployment
}

// A directive without a reason silences nothing and is itself reported.
//
//slotlint:ignore LUA304 // want `^slotlint:ignore LUA304 needs a reason after the rule ID$`
var noReason = redis.NewScript("local v = redis.call('GET', KEYS[1]) return v + 1") // want `arithmetic`
