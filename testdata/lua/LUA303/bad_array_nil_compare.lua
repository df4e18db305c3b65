-- An array reply is a table, empty when nothing matches: never nil.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], 0, ARGV[1], 'LIMIT', 0, 10)
if due == nil then -- want LUA303
  return 0
end
local members = redis.call('LRANGE', KEYS[2], 0, 9)
if members ~= nil then -- want LUA303
  return #members
end
return #due
