-- the caller passes the lock key and the counter key, both tagged
local lockKey, counterKey = KEYS[1], KEYS[2]
if redis.call('SET', lockKey, ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', counterKey)
end
return false
