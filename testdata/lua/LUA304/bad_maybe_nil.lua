if tonumber(redis.call('GET', KEYS[1])) >= tonumber(ARGV[1]) then -- want LUA304
  return 0
end
local cur = tonumber(redis.call('HGET', KEYS[2], 'tokens'))
return cur - 1 -- want LUA304
