-- looks like a binary search, but lo moves by one: one pass per element
local lo, hi = 0, redis.call('LLEN', KEYS[1]) - 1
while lo <= hi do -- want LUA102
  local mid = math.floor((lo + hi) / 2)
  redis.call('LSET', KEYS[1], mid, ARGV[1])
  lo = lo + 1
end
return lo
