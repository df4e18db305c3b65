-- binary search for the first list element at or above ARGV[1]: lo and hi
-- come from LLEN, but each pass halves the range, so it ends in ~64 passes
local target = tonumber(ARGV[1])
local lo, hi = 0, redis.call('LLEN', KEYS[1]) - 1
while lo <= hi do
  local mid = math.floor((lo + hi) / 2)
  local v = tonumber(redis.call('LINDEX', KEYS[1], mid))
  if v and v < target then
    lo = mid + 1
  else
    hi = mid - 1
  end
end
local steps = redis.call('SCARD', KEYS[2])
while steps > 1 do
  steps = math.floor(steps / 2)
end
return lo
