-- release: leave a lock once; the last release deletes it.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's wake-up list: waiters block on it with BLPOP, and the
--          last release pushes one element so that one waiter retries at
--          once instead of after its backoff
-- ARGV[1]  owner token
--
-- Reply: the reentries still held (0 when the lock was deleted), or -1 when
-- the token does not hold the lock (expired, taken over or released).
local lock = KEYS[1]
local wake = KEYS[2]
local token = ARGV[1]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local wakeType = redis.call('TYPE', wake)['ok']
if wakeType ~= 'none' and wakeType ~= 'list' then
  return redis.error_reply('WRONGTYPE wake-up key holds a ' .. wakeType)
end
if lockType == 'none' then
  return -1
end
if redis.call('HGET', lock, 'owner') ~= token then
  return -1
end
local count = redis.call('HINCRBY', lock, 'count', -1)
if count <= 0 then
  redis.call('DEL', lock)
  -- One element at most, gone after a second if nobody was waiting.
  redis.call('LPUSH', wake, '1')
  redis.call('LTRIM', wake, 0, 0)
  redis.call('PEXPIRE', wake, 1000)
  return 0
end
return count
