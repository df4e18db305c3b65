-- whole reads that are the reply at one call and the script's own work at
-- another: a helper also called where its result is not returned, and a
-- local the script reads besides returning it
local function members(key)
  return redis.call('SMEMBERS', key) -- want LUA103
end
if ARGV[1] == 'list' then
  return members(KEYS[1])
end
redis.call('SET', KEYS[2], #members(KEYS[1]))
local names = redis.call('ZRANGE', KEYS[3], 0, -1) -- want LUA103
table.sort(names)
return names
