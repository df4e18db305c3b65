-- The same move, the caller's count clamped before the loop counts it down.
for left = math.min(tonumber(ARGV[1]), 100), 1, -1 do
  redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
end
for i = 10, 1, -1 do
  redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
end
return redis.call('LLEN', KEYS[2])
