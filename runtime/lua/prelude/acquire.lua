-- acquire(lock, lockType, counter, queue, queueType, token, ttl, place,
-- hold, window) takes the lock for token: a free lock (lockType 'none',
-- from TYPE, which the caller has checked is 'none' or 'hash', as it has
-- checked that queueType is 'none' or 'zset', before any write) when
-- nobody is queued ahead of the caller, a re-entry with the owner's token,
-- or the claim of the hand-off reserved for the caller's place. counter is
-- the fencing counter (see nextFence, which must be included first, with
-- the queue functions), ttl the lease in milliseconds, place the caller's
-- place in the queue: '-' when it will not wait, '0' when it will and has
-- none yet. hold is how long, in milliseconds, the caller counts as
-- waiting after this attempt, window the hand-off window.
--
-- Returns fence, count, fresh when the caller holds the lock (fresh: the
-- lock was free and now holds a lease of exactly ttl); else nil and the
-- reply to return: an error, or {0, pttl, place, reserved, wake, ahead}
-- when another owner holds the lock or it is reserved for another caller
-- (reserved = 1), after queueing a caller that will wait; wake is the place
-- of a caller the lock was reserved for by this very attempt (it found the
-- lock free with others queued ahead), which the caller must wake, else 0;
-- ahead the number of callers queued ahead of the caller (0 when it does
-- not wait).
local function acquire(lock, lockType, counter, queue, queueType, token, ttl, place, hold, window)
  if lockType == 'none' and queueType == 'none' then
    -- Free, and nobody waits: the common case, without the queue's reads.
    -- The counter's INCR is the first write (see nextFence).
    local n, failed = nextFence(counter)
    if not n then
      return nil, failed
    end
    redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
    redis.call('PEXPIRE', lock, ttl)
    return n, 1, true
  end
  local now = nowMillis()
  if lockType == 'hash' then
    local f = redis.call('HMGET', lock, 'owner', 'fence', 'place', 'claimant')
    local owner, reservedFor, claimant = f[1], f[3], f[4]
    local fence = tonumber(f[2])
    if not fence or (not owner and not reservedFor) then
      return nil, redis.error_reply('WRONGTYPE lock key holds a hash that is not a lock')
    end
    if owner == token then
      -- One lease per lock: a re-entry may extend it, never shorten what
      -- an earlier entry was promised.
      local count = redis.call('HINCRBY', lock, 'count', 1)
      redis.call('PEXPIRE', lock, ttl, 'GT')
      return fence, count, false
    end
    if not owner and reservedFor == place and claimant == token then
      -- The claim of the hand-off: the caller leaves the queue.
      redis.call('ZREMRANGEBYSCORE', queue, place, place)
      redis.call('HDEL', lock, 'place', 'claimant')
      redis.call('HSET', lock, 'owner', token, 'count', 1)
      redis.call('PEXPIRE', lock, ttl)
      return fence, 1, false
    end
    local mine, failed = enqueue(queue, counter, token, place, hold, now)
    if not mine then
      return nil, failed
    end
    local before = 0
    if mine > 0 then
      before = ahead(queue, mine)
    end
    return nil, {0, redis.call('PTTL', lock), mine, owner and 0 or 1, 0, before}
  end

  -- The lock is free: the first caller still queued may take it, and
  -- anyone else queues behind it.
  local head, gone = queueHead(queue, now)
  if not head or (head.place == place and head.token == token) then
    -- The counter's INCR is the first write (see nextFence).
    local n, failed = nextFence(counter)
    if not n then
      return nil, failed
    end
    dropEntries(queue, gone)
    if head then
      redis.call('ZREM', queue, head.member)
    end
    redis.call('HSET', lock, 'owner', token, 'count', 1, 'fence', n)
    redis.call('PEXPIRE', lock, ttl)
    return n, 1, true
  end
  -- Reserve it for the head, as a release would have, had the head not
  -- been reserved for before and failed to claim (or the holder's lease
  -- ran out): the caller wakes it.
  local n, failed = nextFence(counter)
  if not n then
    return nil, failed
  end
  dropEntries(queue, gone)
  reserveFor(queue, head)
  redis.call('HSET', lock, 'place', head.place, 'claimant', head.token, 'fence', n)
  redis.call('PEXPIRE', lock, window)
  local mine
  mine, failed = enqueue(queue, counter, token, place, hold, now)
  if not mine then
    return nil, failed
  end
  local before = 0
  if mine > 0 then
    before = ahead(queue, mine)
  end
  return nil, {0, tonumber(window), mine, 1, tonumber(head.place), before}
end
