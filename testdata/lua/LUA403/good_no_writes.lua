#!lua flags=no-writes
-- reads only: fine under no-writes
local v = redis.call("GET", KEYS[1])
local n = redis.call("ZCARD", KEYS[2])
return {v, n}
