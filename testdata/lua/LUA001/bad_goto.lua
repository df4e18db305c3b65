-- retry loop written with goto: Lua 5.2 syntax
local tries = 0
::retry:: -- want LUA001
tries = tries + 1
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false and tries < 3 then
  goto retry -- want LUA001
end
return tries
