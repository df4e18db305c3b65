#!lua
-- lock_and_set: take or re-enter a lock, or claim the hand-off reserved for
-- the caller, and write one field of the state it guards, atomically.
--
-- KEYS[1]  the lock hash (as in obtain.lua)
-- KEYS[2]  the fencing counter of the lock's slot (see obtain.lua)
-- KEYS[3]  the state hash; its field "__fence" records the fencing token of
--          the last write
-- ARGV[1]  owner token
-- ARGV[2]  lock TTL in milliseconds
-- ARGV[3]  state field
-- ARGV[4]  state value
-- ARGV[5]  state TTL in milliseconds
-- ARGV[6]  the caller's place in the queue (see obtain.lua)
-- ARGV[7]  the ticket the caller was woken with, '0' when none
--
-- Reply: {1, fence, count, pttl} when the caller holds the lock (pttl: the
--        lease left, which a re-entry only ever extends) and the field was
--        written, {0, pttl, gen, reserved, waiters} when another owner
--        holds the lock or it is reserved for another ticket (as in
--        obtain.lua; the state is not written).
--- @include "prelude/fence"
--- @include "prelude/acquire"
local lock = KEYS[1]
local state = KEYS[3]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local stateType = redis.call('TYPE', state)['ok']
if stateType ~= 'none' and stateType ~= 'hash' then
  return redis.error_reply('WRONGTYPE state key holds a ' .. stateType)
end

local fence, count = acquire(lock, lockType, KEYS[2], ARGV[1], ARGV[2], ARGV[6], ARGV[7])
if not fence then
  return count
end
redis.call('HSET', state, ARGV[3], ARGV[4], '__fence', fence)
redis.call('PEXPIRE', state, ARGV[5])
return {1, fence, count, redis.call('PTTL', lock)}
