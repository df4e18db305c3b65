-- pattern: the same view with the caller's range bounded to a page of at
-- most 100 members (a negative stop, "to the end", replaced too), or with
-- the caller's page size as a LIMIT count (in the image of BullMQ's
-- relaySweep): the passes are bounded whatever the caller asks, and a
-- loop that only reshapes the reply is Lua work on a read already made
local first = tonumber(ARGV[1])
local last = tonumber(ARGV[2])
if last < 0 or last > first + 99 then
  last = first + 99
end
local rows = {}
local nodes = redis.call('ZRANGE', KEYS[1], first, last)
for i = 1, #nodes do
  rows[#rows + 1] = redis.call('ZSCORE', KEYS[1], nodes[i])
end
local batch = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3], 'LIMIT', 0, tonumber(ARGV[4]))
for i = 1, #batch do
  redis.call('ZREM', KEYS[2], batch[i])
end
local names = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
for i = 1, #names do
  names[i] = string.upper(names[i])
end
rows[#rows + 1] = names
return rows
