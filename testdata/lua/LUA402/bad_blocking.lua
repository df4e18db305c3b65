local job = redis.call('BLPOP', KEYS[1], 5) -- want LUA402
redis.call('WAIT', 1, 100) -- want LUA402
local popped = redis.call('BLMPOP', 1, 1, KEYS[2], 'LEFT') -- want LUA402
local events = redis.call('XREAD', 'BLOCK', 1000, 'STREAMS', KEYS[3], '$') -- want LUA402
return {job, popped, events}
