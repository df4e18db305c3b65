-- slotlint:ignore LUA201
redis.call('INCR', 'stats:calls') -- want LUA201
return 1
-- want@1 LUA002
