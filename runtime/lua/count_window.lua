#!lua
-- count_window: add n to a fixed-window counter and give a counter without
-- an expiry the window's, in one step.
--
-- KEYS[1]  the counter (a string holding a decimal integer, or missing)
-- ARGV[1]  n, an integer in 1..10^15-1
-- ARGV[2]  the window in milliseconds, at least 1
--
-- Reply: {count, ms left in the window}. The increment that creates the
-- key starts its window; so does one that finds the key without an expiry
-- (left by other code), so no counter is ever left counting for good.
local counterType = redis.call('TYPE', KEYS[1])['ok']
if counterType ~= 'none' then
  if counterType ~= 'string' then
    return redis.error_reply('WRONGTYPE counter key holds a ' .. counterType)
  end
  -- Lua numbers are doubles: fifteen digits keep every count exact.
  local digits = string.match(redis.call('GET', KEYS[1]), '^%-?(%d+)$')
  if not digits or #digits > 15 then
    return redis.error_reply('WRONGTYPE counter does not hold an integer of at most 15 digits')
  end
end
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  left = tonumber(ARGV[2])
  redis.call('PEXPIRE', KEYS[1], left)
end
return {count, left}
