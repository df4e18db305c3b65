#!lua
-- obtain: take a free lock, re-enter it with the owner's token, or claim
-- the hand-off a release reserved for the caller.
--
-- KEYS[1]  the lock: a hash {owner = token, count = reentries, fence = n,
--          waiters = callers queued for it, gen = id of the queue};
--          between a contended release and the claim of the next owner
--          it is a reservation {ticket = n, fence = n, waiters, gen} that
--          expires after the hand-off window
-- KEYS[2]  the fencing counter of the lock's slot (a string holding an
--          integer), shared by the slot's locks; it outlives every holder,
--          so fencing tokens only ever grow
-- ARGV[1]  owner token
-- ARGV[2]  TTL in milliseconds
-- ARGV[3]  '-' when the caller will not wait; '0' when it will and is not
--          queued yet; else the gen it is queued on (counted in waiters)
-- ARGV[4]  the ticket the caller was woken with, '0' when none
--
-- Reply: {1, fence, count, pttl} when the caller holds the lock, with the
--        lease left (a re-entry only ever extends it: PEXPIRE GT),
--        {0, pttl, gen, reserved, waiters} when another owner holds it or
--        it is reserved for another ticket (reserved = 1): pttl is the time
--        left, waiters the callers queued for it (the caller and, while it
--        is reserved, the claimant included).
-- The shebang makes Redis refuse the script up front when it is out of
-- memory (OOM), as it refuses any write command, rather than fail it
-- half-way. Types are checked before any write (the fencing counter by its
-- INCR, the first write), so a key of another type is reported and left
-- untouched.
--- @include "prelude/fence"
--- @include "prelude/acquire"
local lock = KEYS[1]
local ttl = ARGV[2]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local fence, count, fresh = acquire(lock, lockType, KEYS[2], ARGV[1], ttl, ARGV[3], ARGV[4])
if not fence then
  return count
end
if fresh then
  return {1, fence, 1, tonumber(ttl)}
end
return {1, fence, count, redis.call('PTTL', lock)}
