-- fan a message out to every subscriber of a set, every list entry, every
-- due job: each loop runs once per stored item
local members = redis.call('SMEMBERS', KEYS[1]) -- want LUA103
for _, m in ipairs(members) do -- want LUA102
  redis.call('LPUSH', KEYS[2], m)
end
local entries = redis.call('LRANGE', KEYS[3], 0, -1) -- want LUA103
for i = 1, #entries do -- want LUA102
  redis.call('HINCRBY', KEYS[4], entries[i], 1)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', ARGV[1]) -- want LUA103
local i = 1
while i <= #due do -- want LUA102
  redis.call('ZREM', KEYS[5], due[i])
  i = i + 1
end
local fields = redis.call('HKEYS', KEYS[4]) -- want LUA103
for _, f in pairs(fields) do -- want LUA102
  redis.call('HDEL', KEYS[4], f)
end
return #members
