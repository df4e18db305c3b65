#!lua
-- lock_and_set: take or re-enter a lock, or claim the hand-off reserved for
-- the caller, and write one field of the state it guards, atomically.
--
-- KEYS[1]  the lock hash (as in obtain.lua)
-- KEYS[2]  the fencing counter of the lock's slot (see obtain.lua)
-- KEYS[3]  the state hash; its field "__fence" records the fencing token of
--          the last write
-- KEYS[4]  the lock's queue (see obtain.lua)
-- ARGV[1]  owner token
-- ARGV[2]  lock TTL in milliseconds
-- ARGV[3]  state field
-- ARGV[4]  state value
-- ARGV[5]  state TTL in milliseconds
-- ARGV[6]  the caller's place in the queue (see obtain.lua)
-- ARGV[7]  how long the caller counts as waiting (see obtain.lua)
-- ARGV[8]  the hand-off window in milliseconds
--
-- Reply: {1, fence, count, pttl} when the caller holds the lock (pttl: the
--        lease left, which a re-entry only ever extends) and the field was
--        written, {0, pttl, place, reserved, wake, ahead} when another owner
--        holds the lock or it is reserved for another caller (as in
--        obtain.lua; the state is not written).
--- @include "prelude/fence"
--- @include "prelude/queue"
--- @include "prelude/acquire"
local lock = KEYS[1]
local state = KEYS[3]
local queue = KEYS[4]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local stateType = redis.call('TYPE', state)['ok']
if stateType ~= 'none' and stateType ~= 'hash' then
  return redis.error_reply('WRONGTYPE state key holds a ' .. stateType)
end
local queueType = redis.call('TYPE', queue)['ok']
if queueType ~= 'none' and queueType ~= 'zset' then
  return redis.error_reply('WRONGTYPE queue key holds a ' .. queueType)
end

local fence, count = acquire(lock, lockType, KEYS[2], queue, queueType, ARGV[1], ARGV[2], ARGV[6], ARGV[7], ARGV[8])
if not fence then
  return count
end
redis.call('HSET', state, ARGV[3], ARGV[4], '__fence', fence)
redis.call('PEXPIRE', state, ARGV[5])
return {1, fence, count, redis.call('PTTL', lock)}
