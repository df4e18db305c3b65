-- check: keys=2
local src, dst = KEYS[1], KEYS[2]
local job = redis.call('LMOVE', src, dst, 'RIGHT', 'LEFT')
redis.call('HSET', KEYS[3], 'last', job or '') -- want LUA203
return job
