-- A message broker's requeue in the image of one that moves acked ids
-- back to their queue only when the message still exists: HEXISTS
-- answers 0 or 1, both true in Lua, so every id is pushed, deleted
-- messages included.
-- slotlint:keys-tagged
for i = 1, #ARGV do
  local id = ARGV[i]
  if redis.call('SREM', KEYS[1], id) > 0 then
    if redis.call('HEXISTS', KEYS[2], id) then -- want LUA305
      redis.call('RPUSH', KEYS[3], id)
    end
  end
end
-- a local holding the reply, not of it, and a yes/no through and/or
local member = redis.call('SISMEMBER', KEYS[4], ARGV[1])
if member then -- want LUA305
  redis.call('SREM', KEYS[4], ARGV[1])
end
if not redis.call('EXISTS', KEYS[5]) then -- want LUA305
  redis.call('SET', KEYS[5], 'init')
end
local state = redis.call('EXPIRE', KEYS[5], 60) and 'kept' or 'gone' -- want LUA305
-- inside not (... or ...): the reply's own test is always true
if not (redis.call('SISMEMBER', KEYS[4], ARGV[2]) or ARGV[3] == 'force') then -- want LUA305
  return 'skipped'
end
-- an empty array reply is a table, and true
local pending = redis.call('ZRANGEBYSCORE', KEYS[6], 0, ARGV[2], 'LIMIT', 0, 10)
while pending do -- want LUA305
  break
end
return state
