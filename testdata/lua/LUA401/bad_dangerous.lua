-- cleanup by pattern, then sort by external weights
local stale = redis.call('KEYS', ARGV[1]) -- want LUA401
local sorted = redis.call('SORT', KEYS[1], 'BY', 'weight_*') -- want LUA401
local info = redis.call('INFO', 'memory') -- want LUA401
return {#stale, #sorted, info}
