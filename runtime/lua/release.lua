#!lua flags=allow-oom
-- release: leave a lock once. The last release frees the lock, or, when
-- callers are queued for it, reserves it for one of them: the lock becomes
-- a reservation with a fresh fencing token as its ticket, which only that
-- ticket can claim (obtain.lua) and which expires after the hand-off
-- window, so a waiter that died cannot hold the lock up for longer.
--
-- Redis runs it when out of memory (allow-oom), as it runs DEL: a release
-- frees the lock or swaps it for a reservation of the same size, and
-- refusing it would keep the lock, and its waiters, for the whole TTL.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the fencing counter of the lock's slot (see obtain.lua)
-- KEYS[3]  the lock's wake-up list: queued callers block on it with BLPOP,
--          and Redis gives the ticket to the one that has blocked longest
-- ARGV[1]  owner token
-- ARGV[2]  the hand-off window in milliseconds
-- ARGV[3]  '1' when the caller hands the ticket to a waiter in its own
--          process: the ticket is then not pushed to the list
--
-- Reply: {count} with the reentries still held, {0} when the lock was
-- freed, {0, ticket} when it was reserved, {-1} when the token does not
-- hold the lock (expired, taken over or released).
--- @include "prelude/fence"
local lock = KEYS[1]
local wake = KEYS[3]
local token = ARGV[1]

-- HMGET checks the type before anything is written: it fails on a key
-- that is not a hash, and finds no owner when the key does not exist.
local f = redis.pcall('HMGET', lock, 'owner', 'count', 'waiters', 'gen')
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
local waiters = tonumber(f[3] or 0)
if not waiters or waiters < 1 then
  redis.call('DEL', lock)
  return {0}
end

local push = ARGV[3] ~= '1'
if push then
  local wakeType = redis.call('TYPE', wake)['ok']
  if wakeType ~= 'none' and wakeType ~= 'list' then
    return redis.error_reply('WRONGTYPE wake-up key holds a ' .. wakeType)
  end
end
-- The counter's INCR is the first write (see nextFence).
local n, failed = nextFence(KEYS[2])
if not n then
  return failed
end
redis.call('DEL', lock)
redis.call('HSET', lock, 'ticket', n, 'fence', n, 'waiters', waiters, 'gen', f[4] or n)
redis.call('PEXPIRE', lock, ARGV[2])
if push then
  -- One ticket at most, gone with the reservation.
  redis.call('LPUSH', wake, n)
  redis.call('LTRIM', wake, 0, 0)
  redis.call('PEXPIRE', wake, ARGV[2])
end
return {0, n}
