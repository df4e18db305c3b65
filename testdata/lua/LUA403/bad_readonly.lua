-- check: readonly
local n = redis.call('INCR', KEYS[1]) -- want LUA403
return n
