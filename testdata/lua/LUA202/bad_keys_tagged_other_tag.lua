-- slotlint:keys-tagged the caller's keys carry a tag, but a literal tag
-- before KEYS[1] replaces it
redis.call('SET', '{stats}:' .. KEYS[1], 1) -- want LUA202
return redis.call('INCR', KEYS[1] .. ':n')
