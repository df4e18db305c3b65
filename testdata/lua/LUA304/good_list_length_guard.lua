-- A log of recent hits, newest first, capped at ARGV[1] entries: a cap of
-- 0 or less refuses at once, so the length test below holds only for a
-- log with one entry or more, and its oldest entry is there to read.
local cap = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
if cap <= 0 then
  return 1
elseif cap <= redis.call('LLEN', KEYS[1]) and now - redis.call('LINDEX', KEYS[1], -1) < 60 then
  return 1
end
if redis.call('LLEN', KEYS[2]) > 0 then
  now = math.max(now, tonumber(redis.call('LINDEX', KEYS[2], 0)) + 1)
end
return 0
