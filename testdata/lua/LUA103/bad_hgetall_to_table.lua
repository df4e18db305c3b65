-- turn a whole hash into a Lua table: the read is the cost; the loops
-- only do Lua work per item of what was read, so they are not findings
local flat = redis.call('HGETALL', KEYS[1]) -- want LUA103
local out = {}
for i = 1, #flat, 2 do
  out[flat[i]] = flat[i + 1]
end
local tags = cjson.decode(redis.call('GET', KEYS[2]) or '[]')
local seen = {}
for _, t in ipairs(tags) do
  seen[t] = true
end
return cjson.encode({out, seen})
