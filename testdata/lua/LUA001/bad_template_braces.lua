local prefix = '{{ .Prefix }}' -- a placeholder in a string is still Lua
local n = redis.call('INCR', KEYS[1])
if n > {{ .Limit }} then -- want LUA001
  return 0
end
return n
