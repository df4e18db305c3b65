-- the counter is compared but never incremented
local i = 1
local n = 5
while i <= n do -- want LUA101
  redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
end
return n
