local n = tonumber(ARGV[1])
if not n or n > 1000 then
  return redis.error_reply('count must be at most 1000')
end
for i = 1, n do
  redis.call('LPUSH', KEYS[1], i)
end
return n
