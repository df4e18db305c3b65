#!lua flags=allow-oom
-- release: leave a lock once. The last release frees the lock, or, when
-- callers are queued for it, reserves it for the first of them: the lock
-- becomes a reservation for that caller's place, with a fresh fencing
-- token, which only that caller can claim (obtain.lua) and which expires
-- after the hand-off window, so a waiter that died cannot hold the lock up
-- for longer. The caller of release wakes it: it pushes to the wake-up
-- list of that place (the queue key, ':', the place), on which the waiter
-- blocks with BLPOP.
--
-- Redis runs it when out of memory (allow-oom), as it runs DEL: a release
-- frees the lock or swaps it for a reservation of the same size, and
-- refusing it would keep the lock, and its waiters, for the whole TTL.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the fencing counter of the lock's slot (see obtain.lua)
-- KEYS[3]  the lock's queue (see obtain.lua)
-- ARGV[1]  owner token
-- ARGV[2]  the hand-off window in milliseconds
--
-- Reply: {count} with the reentries still held, {0} when the lock was
-- freed, {0, fence, place} when it was reserved for the caller queued at
-- place, {-1} when the token does not hold the lock (expired, taken over
-- or released).
--- @include "prelude/fence"
--- @include "prelude/queue"
local lock = KEYS[1]
local queue = KEYS[3]
local token = ARGV[1]

-- HMGET checks the type before anything is written: it fails on a key
-- that is not a hash, and finds no owner when the key does not exist.
local f = redis.pcall('HMGET', lock, 'owner', 'count')
if f['err'] then
  if string.find(f['err'], '^WRONGTYPE') then
    return redis.error_reply('WRONGTYPE lock key holds a ' .. redis.call('TYPE', lock)['ok'])
  end
  return f
end
if f[1] ~= token then
  return {-1}
end
local count = tonumber(f[2])
if not count then
  return redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
end
if count > 1 then
  return {redis.call('HINCRBY', lock, 'count', -1)}
end
local queueType = redis.call('TYPE', queue)['ok']
if queueType == 'none' then
  redis.call('DEL', lock)
  return {0}
end
if queueType ~= 'zset' then
  return redis.error_reply('WRONGTYPE queue key holds a ' .. queueType)
end
local head, gone = queueHead(queue, nowMillis())
if not head then
  redis.call('DEL', lock)
  dropEntries(queue, gone)
  return {0}
end

-- The counter's INCR is the first write (see nextFence).
local n, failed = nextFence(KEYS[2])
if not n then
  return failed
end
dropEntries(queue, gone)
reserveFor(queue, head)
-- The lock hash becomes the reservation in place (fields place, claimant
-- and fence), never deleted first: while its slot migrates, a key this
-- script deleted is missing here, and Redis stops the script at the next
-- command on it ("non local key") with the writes before that kept.
redis.call('HSET', lock, 'place', head.place, 'claimant', head.token, 'fence', n)
redis.call('HDEL', lock, 'owner', 'count')
redis.call('PEXPIRE', lock, ARGV[2])
return {0, n, tonumber(head.place)}
