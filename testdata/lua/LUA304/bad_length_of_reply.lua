-- The length of a reply that may be false: a missing key makes # raise
-- ("attempt to get length of local 'owner' (a boolean value)").
local owner = redis.call('GET', KEYS[1])
if #owner > 0 then -- want LUA304
  return owner
end
return ''
