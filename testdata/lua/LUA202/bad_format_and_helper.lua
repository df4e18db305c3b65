local function metaKey(k)
  return k .. ':meta'
end
redis.call('HSET', metaKey(KEYS[1]), 'updated', ARGV[1]) -- want LUA202
redis.call('SADD', string.format('%s:tags', KEYS[1]), ARGV[2]) -- want LUA202
return 1
