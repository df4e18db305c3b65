-- monotonic max: the nil case is tested before the comparison
local cur = tonumber(redis.call('GET', KEYS[1]))
local v = tonumber(ARGV[1])
if cur == nil or v > cur then
  redis.call('SET', KEYS[1], ARGV[1])
  cur = v
end
local hits = (tonumber(redis.call('HGET', KEYS[2], 'hits')) or 0) + 1
local left = tonumber(redis.call('HGET', KEYS[2], 'left'))
if not left then left = 10 end
local total = redis.call('INCR', KEYS[3]) + 1
return {cur, hits, left - 1, total}
