-- bulk upsert of a JSON array sent by the caller: the request carries
-- the items, so it asks for this much work, like a variadic HSET
local items = cjson.decode(ARGV[1])
for _, item in ipairs(items) do
  redis.call('HSET', KEYS[1], item.id, cjson.encode(item))
end
for i = 1, #items do
  redis.call('SADD', KEYS[2], items[i].id)
end
return #items
