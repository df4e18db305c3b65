-- release: leave a lock once; the last release deletes it.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's wake-up list: waiters block on it with BLPOP, and the
--          last release pushes one element when someone waited, so that one
--          waiter retries at once instead of after its backoff
-- ARGV[1]  owner token
--
-- Reply: the reentries still held (0 when the lock was deleted), or -1 when
-- the token does not hold the lock (expired, taken over or released).
local lock = KEYS[1]
local wake = KEYS[2]
local token = ARGV[1]

local lockType = redis.call('TYPE', lock)['ok']
if lockType == 'none' then
  return -1
end
if lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local fields = redis.call('HMGET', lock, 'owner', 'count', 'waiting')
if fields[1] ~= token then
  return -1
end
local count = tonumber(fields[2])
if not count then
  return redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
end
if count > 1 then
  return redis.call('HINCRBY', lock, 'count', -1)
end

-- obtain.lua flags the hash when an attempt found it held.
local waited = fields[3] ~= false
if waited then
  local wakeType = redis.call('TYPE', wake)['ok']
  if wakeType ~= 'none' and wakeType ~= 'list' then
    return redis.error_reply('WRONGTYPE wake-up key holds a ' .. wakeType)
  end
end
redis.call('DEL', lock)
if waited then
  -- One element at most, gone after a second if the waiters left.
  redis.call('LPUSH', wake, '1')
  redis.call('LTRIM', wake, 0, 0)
  redis.call('PEXPIRE', wake, 1000)
end
return 0
