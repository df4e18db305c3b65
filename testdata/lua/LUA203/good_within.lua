-- check: keys=2
local job = redis.call('LMOVE', KEYS[1], KEYS[2], 'RIGHT', 'LEFT')
return job
