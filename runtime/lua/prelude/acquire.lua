-- acquire(lock, lockType, counter, token, ttl, queued, ticket) takes the
-- lock for token: a free lock (lockType 'none', from TYPE, which the caller
-- has checked is 'none' or 'hash' before any write), a re-entry with the
-- owner's token, or the claim of a hand-off reserved for ticket. counter is
-- the fencing counter (see nextFence, which must be included first), ttl
-- the lease in milliseconds, queued the caller's place in the queue: '-'
-- when it will not wait, '0' when it will and is not queued yet, else the
-- gen it is queued on (counted in waiters).
--
-- Returns fence, count, fresh when the caller holds the lock (fresh: the
-- lock was free and now holds a lease of exactly ttl); else nil and the
-- reply to return: an error, or {0, pttl, gen, reserved, waiters} when
-- another owner holds the lock or it is reserved for another ticket
-- (reserved = 1), after queueing a caller that will wait, once per gen, so
-- that the release hands the lock on instead of freeing it.
local function acquire(lock, lockType, counter, token, ttl, queued, ticket)
  if lockType == 'none' then
    -- The counter's INCR is the first write (see nextFence).
    local n, failed = nextFence(counter)
    if not n then
      return nil, failed
    end
    redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
    redis.call('PEXPIRE', lock, ttl)
    return n, 1, true
  end
  local f = redis.call('HMGET', lock, 'owner', 'ticket', 'fence', 'gen', 'waiters')
  local owner, reserved, gen = f[1], f[2], f[4]
  local fence = tonumber(f[3])
  if not fence or (not owner and not reserved) then
    return nil, redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
  end
  if owner ~= token and (owner or reserved ~= ticket) then
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
    return nil, {0, redis.call('PTTL', lock), tonumber(gen) or 0, owner and 0 or 1, waiters}
  end
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
  return fence, count, false
end
