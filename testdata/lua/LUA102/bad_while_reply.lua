-- trim a list one element at a time, as long as the list is
local len = redis.call('LLEN', KEYS[1])
local i = 0
while i < len do -- want LUA102
  redis.call('RPOP', KEYS[1])
  i = i + 1
end
return i
