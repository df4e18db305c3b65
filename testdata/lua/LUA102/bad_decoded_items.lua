-- bulk upsert of a JSON array sent by the caller
local items = cjson.decode(ARGV[1])
for _, item in ipairs(items) do -- want LUA102
  redis.call('HSET', KEYS[1], item.id, cjson.encode(item))
end
return #items
