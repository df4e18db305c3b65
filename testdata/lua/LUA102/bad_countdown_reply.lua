-- retry budget read from stored data, counted down to zero
local budget = tonumber(redis.call('HGET', KEYS[1], 'budget') or 0)
while budget > 0 do -- want LUA102
  redis.call('LPUSH', KEYS[2], ARGV[1])
  budget = budget - 1
end
return budget
