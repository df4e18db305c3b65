-- moves a worker's backup list back to its queue, at most ARGV[1] items
-- a call (exq's heartbeat re-enqueue): the loop ends when the count runs
-- out or the list does, so it pops the caller's count, not the whole list
-- (not LUA103), and that count has no clamp
local limit = tonumber(ARGV[1])
local length = redis.call('LLEN', KEYS[1])
local moved = 0
while limit > 0 and length > 0 do -- want LUA102
  redis.call('RPUSH', KEYS[2], redis.call('LPOP', KEYS[1]))
  limit = limit - 1
  length = length - 1
  moved = moved + 1
end
return {length, moved}
