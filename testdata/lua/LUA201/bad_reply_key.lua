-- follow a pointer stored in the data
local target = redis.call('GET', KEYS[1])
if target then
  return redis.call('GET', target) -- want LUA201
end
return false
