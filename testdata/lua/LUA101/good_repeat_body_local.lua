-- "until not v" reads a local the body declares afresh each time
local n = 0
repeat
  local v = redis.call('LPOP', KEYS[1])
  n = n + 1
until not v or n >= 1000
return n
