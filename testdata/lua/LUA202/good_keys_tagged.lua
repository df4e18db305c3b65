-- slotlint:keys-tagged every key this library passes starts with "{queue}"
local jobKey = KEYS[1] .. ':' .. ARGV[1]
redis.call('HSET', jobKey, 'state', 'waiting')
redis.call('SET', 'lock:' .. KEYS[1], ARGV[2], 'PX', 5000)
return redis.call('LPUSH', KEYS[2], ARGV[1])
