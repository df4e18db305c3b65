-- Move up to ARGV[1] entries from a backlog to the live list, counting the
-- passes down: the start, not the limit, is what the caller sets.
for left = tonumber(ARGV[1]), 1, -1 do -- want LUA102
  redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
end
for n = redis.call('LLEN', KEYS[1]), 1, -1 do -- want LUA102
  redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
end
return redis.call('LLEN', KEYS[2])
