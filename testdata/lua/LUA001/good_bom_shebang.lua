#!lua flags=no-writes,allow-stale
-- a BOM and a shebang: both stripped, lines kept
local v = redis.call("GET", KEYS[1])
return v
