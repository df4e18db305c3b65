local lockKey = KEYS[1] .. ':lock'
if redis.call('SET', lockKey, ARGV[1], 'NX', 'PX', ARGV[2]) then -- want LUA202
  return redis.call('INCR', KEYS[1])
end
return false
