-- The newest entries of a log: the start is the list's length minus a
-- fixed count, so the read takes at most that many, however long the list
-- grows (a short list gives a negative start, which counts back from the
-- end). The stop of the second read is the size clamped to a constant.
local n = redis.call('LLEN', KEYS[1])
local tail = redis.call('LRANGE', KEYS[1], n - 10, -1)
local m = redis.call('ZCARD', KEYS[2])
if m > 100 then
  m = 100
end
local first = redis.call('ZRANGE', KEYS[2], 0, m - 1)
return {#tail, #first}
