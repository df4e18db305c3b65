-- Turning a whole HGETALL into a list with table.insert (in the image of
-- redis_exporter's sample collect script) is Lua work per item of a reply
-- already read: the read is the finding, not the loop.
local result = {}
local r = redis.call('HGETALL', KEYS[1]) -- want LUA103
for _, v in ipairs(r) do
  table.insert(result, v)
end
return result
