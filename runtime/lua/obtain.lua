#!lua
-- obtain: take a free lock nobody is queued for, re-enter it with the
-- owner's token, or claim the hand-off a release reserved for the caller;
-- else queue the caller (or renew its place) when it will wait.
--
-- KEYS[1]  the lock: a hash {owner = token, count = reentries, fence = n};
--          between a contended release and the claim of the next owner
--          it is a reservation {place = p, claimant = token, fence = n}
--          for the caller queued at place p, which expires after the
--          hand-off window
-- KEYS[2]  the fencing counter of the lock's slot (a string holding an
--          integer), shared by the slot's locks; it outlives every holder,
--          so fencing tokens only ever grow. Places in the queue come from
--          it too.
-- KEYS[3]  the lock's wake-up queue (WakeKey): a sorted set of the callers
--          waiting for it, first come first served (see prelude/queue)
-- ARGV[1]  owner token
-- ARGV[2]  TTL in milliseconds
-- ARGV[3]  '-' when the caller will not wait; '0' when it will and has no
--          place yet; else its place, from an earlier reply
-- ARGV[4]  how long the caller counts as waiting after this attempt, in
--          milliseconds: it asks again before then, or loses its place
-- ARGV[5]  the hand-off window in milliseconds
--
-- Reply: {1, fence, count, pttl} when the caller holds the lock, with the
--        lease left (a re-entry only ever extends it: PEXPIRE GT),
--        {0, pttl, place, reserved, wake, ahead} when another owner holds
--        it or it is reserved for another caller (reserved = 1): pttl is
--        the time left, place the caller's place (0 when it does not
--        wait), wake the place of a caller this attempt reserved the lock
--        for, whose wake-up list (the queue key, ':', the place) the
--        caller pushes to, else 0, and ahead the number of callers queued
--        ahead of the caller.
-- The shebang makes Redis refuse the script up front when it is out of
-- memory (OOM), as it refuses any write command, rather than fail it
-- half-way. Types are checked before any write (the fencing counter by its
-- INCR, the first write), so a key of another type is reported and left
-- untouched.
--- @include "prelude/fence"
--- @include "prelude/queue"
--- @include "prelude/acquire"
local lock = KEYS[1]
local queue = KEYS[3]
local ttl = ARGV[2]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local queueType = redis.call('TYPE', queue)['ok']
if queueType ~= 'none' and queueType ~= 'zset' then
  return redis.error_reply('WRONGTYPE queue key holds a ' .. queueType)
end
local fence, count, fresh = acquire(lock, lockType, KEYS[2], queue, queueType, ARGV[1], ttl, ARGV[3], ARGV[4], ARGV[5])
if not fence then
  return count
end
if fresh then
  return {1, fence, 1, tonumber(ttl)}
end
return {1, fence, count, redis.call('PTTL', lock)}
