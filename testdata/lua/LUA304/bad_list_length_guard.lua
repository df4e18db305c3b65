-- The same log with nothing ruling out a cap of 0: "0 <= LLEN" holds for
-- an empty log, and LINDEX of it is false.
local cap = tonumber(ARGV[1]) - 1
local now = tonumber(ARGV[1]) * 1000
if cap <= redis.call('LLEN', KEYS[1]) and now - redis.call('LINDEX', KEYS[1], -1) < 60 then -- want LUA304
  return 1
end
if cap > 0 then
  cap = cap - 1
elseif redis.call('LLEN', KEYS[2]) > cap then
  return redis.call('LINDEX', KEYS[2], -1) + 1 -- want LUA304
end
if redis.call('LLEN', KEYS[2]) > 0 then
  redis.call('RPOP', KEYS[2])
  return redis.call('LINDEX', KEYS[2], -1) + 1 -- want LUA304
end
return 0
