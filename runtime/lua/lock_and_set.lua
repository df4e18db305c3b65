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
local lock = KEYS[1]
local state = KEYS[3]
local token = ARGV[1]
local ttl = ARGV[2]
local queued = ARGV[6]

local lockType = redis.call('TYPE', lock)['ok']
if lockType ~= 'none' and lockType ~= 'hash' then
  return redis.error_reply('WRONGTYPE lock key holds a ' .. lockType)
end
local stateType = redis.call('TYPE', state)['ok']
if stateType ~= 'none' and stateType ~= 'hash' then
  return redis.error_reply('WRONGTYPE state key holds a ' .. stateType)
end

local fence
local count = 1
if lockType == 'hash' then
  local f = redis.call('HMGET', lock, 'owner', 'ticket', 'fence', 'gen', 'waiters')
  local owner, ticket, gen = f[1], f[2], f[4]
  fence = tonumber(f[3])
  if not fence or (not owner and not ticket) then
    return redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
  end
  if owner ~= token and (owner or ticket ~= ARGV[7]) then
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
  end
  if gen == queued and tonumber(f[5] or 0) > 0 then
    redis.call('HINCRBY', lock, 'waiters', -1)
  end
  if owner then
    count = redis.call('HINCRBY', lock, 'count', 1)
    redis.call('PEXPIRE', lock, ttl, 'GT')
  else
    redis.call('HDEL', lock, 'ticket')
    redis.call('HSET', lock, 'owner', token, 'count', 1)
    redis.call('PEXPIRE', lock, ttl)
  end
else
  -- The counter's INCR is the first write (see nextFence).
  local failed
  fence, failed = nextFence(KEYS[2])
  if not fence then
    return failed
  end
  redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', fence)
  redis.call('PEXPIRE', lock, ttl)
end
redis.call('HSET', state, ARGV[3], ARGV[4], '__fence', fence)
redis.call('PEXPIRE', state, ARGV[5])
return {1, fence, count, redis.call('PTTL', lock)}
