-- obtain: take a free lock, or re-enter it with the owner's token.
--
-- KEYS[1]  the lock: a hash {owner = token, count = reentries, fence = n,
--          waiting = 1 once an attempt found it held}
-- KEYS[2]  the lock's fencing counter (a string holding an integer); it
--          outlives every holder, so fencing tokens only ever grow
-- ARGV[1]  owner token
-- ARGV[2]  TTL in milliseconds
-- ARGV[3]  '1' when the caller has waited for the lock: others may still
--          wait, so the new hash is flagged for its release to wake one
--
-- Reply: {1, fence, count} when the caller holds the lock,
--        {0, pttl} when another owner holds it (pttl: its remaining TTL).
-- Types are checked before any write (the fencing counter by its INCR, the
-- first write), so a key of another type is reported and left untouched.
local lock = KEYS[1]
local fence = KEYS[2]
local token = ARGV[1]
local ttl = ARGV[2]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end

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
  local count = redis.call('HINCRBY', lock, 'count', 1)
  redis.call('PEXPIRE', lock, ttl)
  return {1, tonumber(redis.call('HGET', lock, 'fence')), count}
end

-- INCR is the first write: when the counter is not an integer it fails
-- and nothing has been written.
local n = redis.pcall('INCR', fence)
if type(n) ~= 'number' then
  return redis.error_reply('WRONGTYPE fencing key does not hold a counter')
end
redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
if ARGV[3] == '1' then
  redis.call('HSET', lock, 'waiting', '1')
end
redis.call('PEXPIRE', lock, ttl)
return {1, n, 1}
