-- SORT without BY or GET is a plain read; TYPE and TIME are harmless
local sorted = redis.call('SORT', KEYS[1], 'LIMIT', 0, 10, 'ALPHA')
local kind = redis.call('TYPE', KEYS[1])
local now = redis.call('TIME')
return {#sorted, kind, now[1]}
