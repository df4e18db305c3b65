-- A batch read to a stop made from the caller's count, in the image of a
-- task queue that moves an aggregation group when it is full: the stop is
-- count - 1, so a count of 0 (the queue's "no limit") gives -1 and moves
-- the whole group, a ZADD per member.
local maxSize = tonumber(ARGV[1])
local res = redis.call('ZRANGE', KEYS[1], 0, maxSize - 1, 'WITHSCORES')
for i = 1, table.getn(res) - 1, 2 do -- want LUA102
  redis.call('ZADD', KEYS[2], tonumber(res[i + 1]), res[i])
end
local ids = redis.call('LRANGE', KEYS[3], 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(ids) do -- want LUA102
  redis.call('SADD', KEYS[4], id)
end
return #ids
