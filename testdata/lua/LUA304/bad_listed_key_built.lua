-- a key built from a listed one is another key, which may be missing
local now = tonumber(ARGV[1])
local n = 0
for _, key in ipairs(redis.call('KEYS', 'hb:*')) do -- slotlint:ignore LUA401 LUA102 a maintenance script run on one node over its few heartbeat keys
  local owner = redis.call('GET', key .. ':owner') -- slotlint:ignore LUA201 the same node's keys
  if now - owner > 60000 then -- want LUA304
    n = n + 1
  end
end
return n
