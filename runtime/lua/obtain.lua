-- obtain: take a free lock, or re-enter it with the owner's token.
--
-- KEYS[1]  the lock: a hash {owner = token, count = reentries, fence = n}
-- KEYS[2]  the lock's fencing counter (a string holding an integer); it
--          outlives every holder, so fencing tokens only ever grow
-- ARGV[1]  owner token
-- ARGV[2]  TTL in milliseconds
--
-- Reply: {1, fence, count} when the caller holds the lock,
--        {0, pttl} when another owner holds it (pttl: its remaining TTL).
-- Types are checked before any write, so a key of another type is reported
-- and left untouched.
local lock = KEYS[1]
local fence = KEYS[2]
local token = ARGV[1]
local ttl = ARGV[2]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local fenceType = redis.call('TYPE', fence)['ok']
if fenceType ~= 'none' and fenceType ~= 'string' then
  return redis.error_reply('WRONGTYPE fencing key holds a ' .. fenceType)
end
if fenceType == 'string' then
  local current = redis.call('GET', fence)
  if not string.match(current, '^%d+$') then
    return redis.error_reply('WRONGTYPE fencing key does not hold a counter')
  end
end

if lockType == 'hash' then
  local owner = redis.call('HGET', lock, 'owner')
  if not owner then
    return redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
  end
  if owner ~= token then
    return {0, redis.call('PTTL', lock)}
  end
  local count = redis.call('HINCRBY', lock, 'count', 1)
  redis.call('PEXPIRE', lock, ttl)
  return {1, tonumber(redis.call('HGET', lock, 'fence')), count}
end

local n = redis.call('INCR', fence)
redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
redis.call('PEXPIRE', lock, ttl)
return {1, n, 1}
