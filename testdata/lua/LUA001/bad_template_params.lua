-- StackExchange.Redis LuaScript.Prepare style
local current = redis.call('GET', @key) -- want LUA001
if current == @expected then
  return redis.call('SET', @key, @value)
end
return 0
