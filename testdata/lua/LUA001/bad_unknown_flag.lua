#!lua flags=no-writes,readonly
return redis.call("GET", KEYS[1])
-- want@1 LUA001
