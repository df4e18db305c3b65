-- Beside another test, or a false test of another value, the nil test is
-- still the constant one.
local rank = redis.call('ZREVRANK', KEYS[1], ARGV[1])
local other = redis.call('ZRANK', KEYS[1], ARGV[1])
if rank ~= nil and rank ~= 0 then -- want LUA303
  return rank
end
if rank ~= nil and other ~= false then -- want LUA303
  return other
end
return 0
