#!lua flags=allow-oom
-- refresh: extend a held lock's lease to at least TTL from now. It never
-- shortens it: other entries of the owner were promised the lease it has.
-- Redis runs it when out of memory (allow-oom), as it runs PEXPIRE: the
-- owner keeps its lease rather than lose the lock under its work.
--
-- KEYS[1]  the lock hash
-- ARGV[1]  owner token
-- ARGV[2]  TTL in milliseconds
--
-- Reply: {1, pttl} when renewed, with the lease left; {0} when the token
-- does not hold the lock.
local lock = KEYS[1]
local token = ARGV[1]
local ttl = ARGV[2]

local lockType = redis.call('TYPE', lock)['ok']
if lockType == 'none' then
  return {0}
end
if lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
if redis.call('HGET', lock, 'owner') ~= token then
  return {0}
end
redis.call('PEXPIRE', lock, ttl, 'GT')
return {1, redis.call('PTTL', lock)}
