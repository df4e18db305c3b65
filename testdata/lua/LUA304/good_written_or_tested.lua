-- A value the script has just written, or whose read it has tested, is
-- not missing.
redis.call('DECRBY', KEYS[1], ARGV[1])
if tonumber(redis.call('GET', KEYS[1])) < 0 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  return 0
end
if redis.call('ZSCORE', KEYS[2], ARGV[2]) ~= false then
  return tonumber(redis.call('ZSCORE', KEYS[2], ARGV[2])) - 5
end
redis.call('HINCRBY', KEYS[3], 'used', 1)
return tonumber(redis.call('HGET', KEYS[3], 'used')) + 1
