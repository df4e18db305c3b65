-- move N jobs, N chosen by the caller
local n = tonumber(ARGV[1])
for i = 1, n do -- want LUA102
  redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
end
return n
