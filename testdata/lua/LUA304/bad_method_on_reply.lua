-- A method call on a reply that may be false: a missing key makes the
-- string method lookup fail ("attempt to index local ... (a boolean value)").
local owner = redis.call('GET', KEYS[1])
if owner:sub(1, 7) == 'worker:' then -- want LUA304
  return 1
end
return 0
