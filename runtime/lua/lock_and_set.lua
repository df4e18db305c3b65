-- lock_and_set: take or re-enter a lock and write one field of the state it
-- guards, atomically.
--
-- KEYS[1]  the lock hash (as in obtain.lua)
-- KEYS[2]  the lock's fencing counter
-- KEYS[3]  the state hash; its field "__fence" records the fencing token of
--          the last write
-- ARGV[1]  owner token
-- ARGV[2]  lock TTL in milliseconds
-- ARGV[3]  state field
-- ARGV[4]  state value
-- ARGV[5]  state TTL in milliseconds
-- ARGV[6]  '1' when the caller has waited for the lock (see obtain.lua)
--
-- Reply: {1, fence, count} when the caller holds the lock and the field was
--        written, {0, pttl} when another owner holds the lock (nothing is
--        written).
local lock = KEYS[1]
local fence = KEYS[2]
local state = KEYS[3]
local token = ARGV[1]
local ttl = ARGV[2]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local stateType = redis.call('TYPE', state)['ok']
if stateType ~= 'none' and stateType ~= 'hash' then
  return redis.error_reply('WRONGTYPE state key holds a ' .. stateType)
end

local n
local count
if lockType == 'hash' then
  local owner = redis.call('HGET', lock, 'owner')
  if not owner then
    return redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
  end
  if owner ~= token then
    -- Flag the contention so that the release wakes a waiter.
    redis.call('HSET', lock, 'waiting', '1')
    return {0, redis.call('PTTL', lock)}
  end
  n = tonumber(redis.call('HGET', lock, 'fence'))
  count = redis.call('HINCRBY', lock, 'count', 1)
else
  -- INCR is the first write: when the counter is not an integer it
  -- fails and nothing has been written.
  n = redis.pcall('INCR', fence)
  if type(n) ~= 'number' then
    return redis.error_reply('WRONGTYPE fencing key does not hold a counter')
  end
  count = 1
  redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
  if ARGV[6] == '1' then
    redis.call('HSET', lock, 'waiting', '1')
  end
end
redis.call('PEXPIRE', lock, ttl)
redis.call('HSET', state, ARGV[3], ARGV[4], '__fence', n)
redis.call('PEXPIRE', state, ARGV[5])
return {1, n, count}
