-- The queue of callers waiting for a lock is a sorted set: each caller's
-- score is its place, a number from the fencing counter (so a later caller
-- gets a higher one), and its member is 'place:until:token', where until is
-- the server time in milliseconds up to which the caller counts as waiting
-- (each of its attempts renews it) and 0 once a release reserved the lock
-- for it, which it then claims within the hand-off window or loses.

-- nowMillis returns the server's time in milliseconds.
local function nowMillis()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- parseEntry splits a queue member into place (a string), until and token;
-- nil for a member of another form.
local function parseEntry(m)
  local place, untilMs, token = string.match(m, '^(%d+):(%d+):(.*)$')
  if not place then
    return nil
  end
  return place, tonumber(untilMs), token
end

-- queueHead returns the first caller of queue still waiting at now (place,
-- token, member) and the members ahead of it, which left: their time ran
-- out, or the lock was reserved for them and they did not claim it. It
-- reads the queue a few members at a time (the head is nearly always the
-- first), and at most headPages pages: when all of those left, the next
-- member counts as the head whether it left or not (a reservation for it
-- then lapses after the hand-off window, and the next look goes on from
-- there), so one call's cost does not grow with the queue. It only reads;
-- dropEntries removes what it found.
local headPage, headPages = 4, 16

local function queueHead(queue, now)
  local gone = {}
  for page = 0, headPages do
    local from = page * headPage
    local ms = redis.call('ZRANGE', queue, from, from + headPage - 1)
    for _, m in ipairs(ms) do
      local place, untilMs, token = parseEntry(m)
      if place and (untilMs > now or page == headPages) then
        return {place = place, token = token, member = m}, gone
      end
      gone[#gone + 1] = m
    end
    if #ms < headPage then
      return nil, gone
    end
  end
  return nil, gone
end

-- ahead returns how many callers are queued ahead of place (a number),
-- the one the lock is reserved for included.
local function ahead(queue, place)
  return redis.call('ZCOUNT', queue, '-inf', '(' .. place)
end

local function dropEntries(queue, gone)
  for i = 1, #gone, 100 do
    redis.call('ZREM', queue, unpack(gone, i, math.min(i + 99, #gone)))
  end
end

-- replaceEntry puts member in the queue in place of old: the new one
-- first, so the queue is never empty in between. While the queue's slot
-- migrates, a key the script emptied is missing here, and Redis would stop
-- the script at the next command on it ("non local key"), with the writes
-- before that kept.
local function replaceEntry(queue, old, score, member)
  redis.call('ZADD', queue, score, member)
  if member ~= old then
    redis.call('ZREM', queue, old)
  end
end

-- reserveFor marks the queue's head as the caller the lock is reserved for.
local function reserveFor(queue, head)
  replaceEntry(queue, head.member, head.place, head.place .. ':0:' .. head.token)
end

-- enqueue renews the caller's place for hold milliseconds from now, or
-- gives it one at the end of the queue when it has none (place '0') or
-- lost it; place '-' means the caller does not wait. The first write of an
-- enqueue that gives a place is the counter's INCR (see nextFence). It
-- returns the place (0 for '-'), or nil and the error reply to return.
local function enqueue(queue, counter, token, place, hold, now)
  if place == '-' then
    return 0
  end
  if place ~= '0' then
    local m = redis.call('ZRANGE', queue, place, place, 'BYSCORE', 'LIMIT', 0, 1)[1]
    if m then
      local p, untilMs, t = parseEntry(m)
      if p == place and t == token and untilMs > now then
        replaceEntry(queue, m, place, place .. ':' .. (now + hold) .. ':' .. token)
        if redis.call('PTTL', queue) < tonumber(hold) then
          redis.call('PEXPIRE', queue, hold)
        end
        return tonumber(place)
      end
    end
  end
  local n, failed = nextFence(counter)
  if not n then
    return nil, failed
  end
  redis.call('ZADD', queue, n, n .. ':' .. (now + hold) .. ':' .. token)
  if redis.call('PTTL', queue) < tonumber(hold) then
    redis.call('PEXPIRE', queue, hold)
  end
  return n
end
