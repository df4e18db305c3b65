-- check: argloops
-- with the switch on, loops over the request's own arguments are reported
for i = 1, #KEYS do -- want LUA102
  redis.call('UNLINK', KEYS[i])
end
for _, field in ipairs(ARGV) do -- want LUA102
  redis.call('HDEL', KEYS[1], field)
end
local items = cjson.decode(ARGV[1])
for _, item in ipairs(items) do -- want LUA102
  redis.call('SADD', KEYS[2], item)
end
return #KEYS
