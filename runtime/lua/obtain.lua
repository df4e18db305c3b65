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
local lock = KEYS[1]
local token = ARGV[1]
local ttl = ARGV[2]
local queued = ARGV[3]

local lockType = redis.call('TYPE', lock)['ok']
if lockType == 'none' then
  -- The counter's INCR is the first write (see nextFence).
  local n, failed = nextFence(KEYS[2])
  if not n then
    return failed
  end
  redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
  redis.call('PEXPIRE', lock, ttl)
  return {1, n, 1, tonumber(ttl)}
end
if lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end

local f = redis.call('HMGET', lock, 'owner', 'ticket', 'fence', 'gen', 'waiters')
local owner, ticket, gen = f[1], f[2], f[4]
local fence = tonumber(f[3])
if not fence or (not owner and not ticket) then
  return redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
end
if owner == token or (not owner and ticket == ARGV[4]) then
  -- A waiter that gets the lock leaves the queue.
  if gen == queued and tonumber(f[5] or 0) > 0 then
    redis.call('HINCRBY', lock, 'waiters', -1)
  end
  local count = 1
  if owner then
    -- One lease per lock: a re-entry may extend it, never shorten what an
    -- earlier entry was promised.
    count = redis.call('HINCRBY', lock, 'count', 1)
    redis.call('PEXPIRE', lock, ttl, 'GT')
  else
    redis.call('HDEL', lock, 'ticket')
    redis.call('HSET', lock, 'owner', token, 'count', 1)
    redis.call('PEXPIRE', lock, ttl)
  end
  return {1, fence, count, redis.call('PTTL', lock)}
end
-- Held, or reserved for another waiter: queue a caller that will wait,
-- once per gen, so that the release hands the lock on instead of freeing it.
local waiters = tonumber(f[5] or 0) or 0
if queued ~= '-' then
  if not gen then
    gen = tostring(fence)
    redis.call('HSET', lock, 'gen', gen)
  end
  if queued ~= gen then
    waiters = redis.call('HINCRBY', lock, 'waiters', 1)
  end
end
return {0, redis.call('PTTL', lock), tonumber(gen) or 0, owner and 0 or 1, waiters}
