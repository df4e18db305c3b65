-- The write or the test was of another key, field or member.
redis.call('DECRBY', KEYS[1], ARGV[1])
if tonumber(redis.call('GET', KEYS[2])) < 0 then -- want LUA304
  return 0
end
if redis.call('ZSCORE', KEYS[3], ARGV[2]) ~= false then
  return tonumber(redis.call('ZSCORE', KEYS[3], ARGV[3])) - 5 -- want LUA304
end
redis.call('HINCRBY', KEYS[4], 'used', 1)
redis.call('DEL', KEYS[1])
local left = tonumber(redis.call('GET', KEYS[1])) - 1 -- want LUA304
return tonumber(redis.call('HGET', KEYS[4], 'limit')) + left -- want LUA304
