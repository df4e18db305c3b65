local owner = redis.call('GET', KEYS[1])
if owner == nil then -- want LUA303
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
local field = redis.call('HGET', KEYS[2], ARGV[1])
if field ~= nil then -- want LUA303
  return field
end
return false
