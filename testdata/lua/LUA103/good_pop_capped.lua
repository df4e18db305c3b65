-- pattern: the same requeue, moving at most ARGV[1] (clamped to 500)
-- messages per call and returning how many are left for the next one
local max = math.min(tonumber(ARGV[1]) or 100, 500)
local moved = 0
while moved < max do
  local element = redis.call('RPOP', KEYS[1])
  if not element then break end
  redis.call('LPUSH', KEYS[2], element)
  moved = moved + 1
end
repeat
  local stale = redis.call('LPOP', KEYS[3])
  moved = moved + 1
until not stale or moved >= 1000
return redis.call('LLEN', KEYS[1])
