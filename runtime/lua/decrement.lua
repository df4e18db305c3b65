#!lua
-- decrement: take n from a stock counter only if at least n is left.
--
-- KEYS[1]  the counter (a string holding a decimal integer)
-- ARGV[1]  n, a positive integer
--
-- Reply: {1, left} after taking n, {0, left} when fewer than n are left
-- (nothing is changed).
local counterType = redis.call('TYPE', KEYS[1])['ok']
if counterType == 'none' then
  return redis.error_reply('NOTFOUND counter does not exist')
end
if counterType ~= 'string' then
  return redis.error_reply('WRONGTYPE counter key holds a ' .. counterType)
end
local raw = redis.call('GET', KEYS[1])
-- Lua numbers are doubles: fifteen digits keep every integer exact.
local digits = string.match(raw, '^%-?(%d+)$')
if not digits or #digits > 15 then
  return redis.error_reply('WRONGTYPE counter does not hold an integer of at most 15 digits')
end
local left = tonumber(raw)
local n = tonumber(ARGV[1])
if left < n then
  return {0, left}
end
return {1, redis.call('DECRBY', KEYS[1], n)}
