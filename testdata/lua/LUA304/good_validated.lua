-- the stored value is validated with a pattern before tonumber, so the
-- comparison never sees nil (testing digits guards raw)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('counter does not exist')
end
local raw = redis.call('GET', KEYS[1])
local digits = string.match(raw, '^%-?(%d+)$')
if not digits or #digits > 15 then
  return redis.error_reply('counter does not hold an integer')
end
local left = tonumber(raw)
local n = tonumber(ARGV[1]) or 1
if left < n then
  return {0, left}
end
return {1, redis.call('DECRBY', KEYS[1], n)}
