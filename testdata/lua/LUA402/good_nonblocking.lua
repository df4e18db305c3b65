-- XREAD without BLOCK and PUBLISH are fine in scripts
local job = redis.call('LPOP', KEYS[1])
local events = redis.call('XREAD', 'COUNT', 10, 'STREAMS', KEYS[2], '0')
redis.call('PUBLISH', 'jobs', job or 'none')
return events
