-- A page of at most 100 members after the caller's start: a sum of the
-- start and a constant is a stop the caller cannot stretch.
local first = tonumber(ARGV[1])
local ids = redis.call('ZRANGE', KEYS[1], first, first + 99)
for _, id in ipairs(ids) do
  redis.call('SADD', KEYS[2], id)
end
return #ids
