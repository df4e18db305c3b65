-- delete every key passed: the request asks for this much work, like a
-- variadic DEL, so the loop is quiet by default
for i = 1, #KEYS do
  redis.call('UNLINK', KEYS[i])
end
for i = 1, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
for _, field in ipairs(ARGV) do
  redis.call('HDEL', KEYS[2], field)
end
local n = 0
while n < #KEYS do
  n = n + 1
end
return n
