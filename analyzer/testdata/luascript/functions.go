package luascript

import "github.com/redis/go-redis/v9"

// A Functions library: its functions are matched to FCALLs by name.
const library = `#!lua name=jobs
redis.register_function('claim', function(keys, args)
  return redis.call('SET', keys[1] .. ':owner', args[1], 'NX')
end)
redis.register_function('pair', function(keys, args)
  return redis.call('RENAME', keys[1], keys[2])
end)
redis.register_function{function_name='peek', callback=function(keys, args)
  return redis.call('GET', keys[1])
end, flags={'no-writes'}}
redis.register_function('stamp', function(keys, args) return os.time() end)` // want `^global os.time does not exist in Redis.s script sandbox`

func functions(rdb *redis.ClusterClient, id string) {
	rdb.FunctionLoadReplace(ctx, library)
	rdb.FCall(ctx, "claim", []string{"job:{" + id + "}"}, "me")
	rdb.FCall(ctx, "claim", []string{"job:" + id}, "me") // want `script SET key keys\[1\] \.\. ":owner" \(Lua line 3\) is "job:" \+ id \+ ":owner" with this call's keys\[1\] = "job:" \+ id: it shares no hash tag with keys\[1\]`
	rdb.FCall(ctx, "pair", []string{"{j}:a"}, "me")      // want `FCall passes 1 key but function pair reads KEYS\[2\] \(Lua line 6\): it is nil there`
	rdb.FCall(ctx, "pair", []string{"{j}:a", "{j}:b"})
	rdb.FCallRO(ctx, "peek", []string{"{j}:a"})
	rdb.FCallRO(ctx, "claim", []string{"{j}:a"}, "me") // want `^Lua line 3: .*SET`
}
