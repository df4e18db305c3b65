#!lua flags=no-writes
local v = redis.call("GET", KEYS[1])
redis.call("SET", KEYS[2], v or "") -- want LUA403
return v
