-- The same decisions written as Redis answers them: integers compared,
-- tables measured, and nil bulk replies (false when missing) tested as
-- they are. A reply before "or" only leaves the default unused.
-- slotlint:keys-tagged
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  redis.call('RPUSH', KEYS[3], ARGV[1])
end
local member = redis.call('SISMEMBER', KEYS[4], ARGV[1])
if member == 1 then
  redis.call('SREM', KEYS[4], ARGV[1])
end
if redis.call('EXISTS', KEYS[5]) == 0 then
  redis.call('SET', KEYS[5], 'init')
end
local pending = redis.call('ZRANGEBYSCORE', KEYS[6], 0, ARGV[2], 'LIMIT', 0, 10)
if #pending > 0 then
  redis.call('ZREM', KEYS[6], unpack(pending))
end
local value = redis.call('GET', KEYS[5])
if value then
  redis.call('SET', KEYS[5], value .. '!')
end
if not redis.call('HGET', KEYS[2], ARGV[1]) then
  redis.call('HSET', KEYS[2], ARGV[1], 0)
end
-- a truth test beside a test of the same value is redundant, not wrong
local head = redis.call('ZRANGE', KEYS[6], 0, 0, 'WITHSCORES')
if head and #head >= 2 and head[1] == ARGV[1] then
  redis.call('ZREM', KEYS[6], head[1])
end
if not head or #head == 0 then
  return 0
end
local popped = redis.call('SREM', KEYS[4], ARGV[1])
local done = popped and popped > 0
local count = redis.call('LLEN', KEYS[3]) or 0
return count + (redis.call('SCARD', KEYS[4]) > 0 and 1 or 0) + (done and 1 or 0)
