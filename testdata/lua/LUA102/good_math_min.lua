local n = math.min(tonumber(ARGV[1]) or 10, 100)
for i = 1, n do
  redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
end
return n
