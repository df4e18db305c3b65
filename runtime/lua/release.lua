-- release: leave a lock once; the last release deletes it.
--
-- KEYS[1]  the lock hash
-- ARGV[1]  owner token
--
-- Reply: the reentries still held (0 when the lock was deleted), or -1 when
-- the token does not hold the lock (expired, taken over or released).
local lock = KEYS[1]
local token = ARGV[1]

local lockType = redis.call('TYPE', lock)['ok']
if lockType == 'none' then
  return -1
end
if lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
if redis.call('HGET', lock, 'owner') ~= token then
  return -1
end
local count = redis.call('HINCRBY', lock, 'count', -1)
if count <= 0 then
  redis.call('DEL', lock)
  return 0
end
return count
