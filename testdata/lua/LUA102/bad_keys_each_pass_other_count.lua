-- The first loop bounds n by the keys passed; a second count from ARGV
-- bounds nothing.
local n, m = ARGV[1], tonumber(ARGV[2])
for i = 1, n do
  redis.call('HGET', KEYS[i], 'xid')
end
for i = 1, m do -- want LUA102
  redis.call('RPUSH', KEYS[1], i)
end
return 1
