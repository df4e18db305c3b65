-- The newest jobs only: the start is counted back from the end on every
-- path, so the read is a page the caller sizes (clamped here).
local n = math.min(tonumber(ARGV[1]), 100)
local first = -10
if n > 0 then
  first = -n
end
return redis.call('LRANGE', KEYS[1], first, -1)
