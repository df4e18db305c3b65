-- the same loops over bounded reads: a LIMIT page, a fixed LRANGE, a
-- clamped count over a whole read
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for i = 1, #due do
  redis.call('ZREM', KEYS[1], due[i])
end
local head = redis.call('LRANGE', KEYS[2], 0, 99)
for _, v in ipairs(head) do
  redis.call('SADD', KEYS[3], v)
end
local n = redis.call('LLEN', KEYS[2])
for i = 1, math.min(n, 50) do
  redis.call('RPOP', KEYS[2])
end
return #due
