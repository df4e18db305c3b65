local members = redis.call('SMEMBERS', KEYS[1]) -- want LUA103
local profile = redis.call('HGETALL', KEYS[2]) -- want LUA103
local history = redis.call('LRANGE', KEYS[3], 0, -1) -- want LUA103
local ranked = redis.call('ZREVRANGE', KEYS[4], 0, -1, 'WITHSCORES') -- want LUA103
local due = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[1]) -- want LUA103
local byscore = redis.call('ZRANGE', KEYS[4], '-inf', '+inf', 'BYSCORE') -- want LUA103
local common = redis.call('SINTER', KEYS[1], KEYS[5]) -- want LUA103
return {#members, #profile, #history, #ranked, #due, #byscore, #common}
