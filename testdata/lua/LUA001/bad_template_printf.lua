-- A script kept as a format string that the application fills with
-- fmt.Sprintf before sending it (in the image of a public Go batch-pop
-- script): it is not Lua until rendered.
local result = {}
local batch = %d -- want LUA001
for i = 1, batch do
  local v = redis.call('LPOP', KEYS[1])
  if not v then break end
  result[#result + 1] = v
end
return result
