#!lua
-- set_state: write one field of the state a lock guards, only while the
-- caller still holds the lock and only with a fencing token at least as new
-- as the one of the last write.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the state hash; field "__fence" holds the last writer's token
-- ARGV[1]  owner token
-- ARGV[2]  the owner's fencing token
-- ARGV[3]  state field
-- ARGV[4]  state value
-- ARGV[5]  state TTL in milliseconds
--
-- Reply: 1 written, 0 the token does not hold the lock, -1 the fencing token
-- is older than the state's.
local lock = KEYS[1]
local state = KEYS[2]
local token = ARGV[1]
local fence = tonumber(ARGV[2])

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local stateType = redis.call('TYPE', state)['ok']
if stateType ~= 'none' and stateType ~= 'hash' then
  return redis.error_reply('WRONGTYPE state key holds a ' .. stateType)
end
if lockType == 'none' or redis.call('HGET', lock, 'owner') ~= token then
  return 0
end
local last = redis.call('HGET', state, '__fence')
if last then
  local lastFence = tonumber(last)
  if not lastFence then
    return redis.error_reply('WRONGTYPE state key holds a malformed fencing token')
  end
  if fence < lastFence then
    return -1
  end
end
redis.call('HSET', state, ARGV[3], ARGV[4], '__fence', ARGV[2])
redis.call('PEXPIRE', state, ARGV[5])
return 1
