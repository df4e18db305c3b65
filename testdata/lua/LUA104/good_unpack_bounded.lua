-- unpacks LUA104 must not report: the request's own KEYS and ARGV, a page
-- read with LIMIT, a table filled at a fixed index, and a set-like table
-- keyed by the items, whose array part unpack reads is empty.
redis.call('DEL', unpack(KEYS))
redis.call('SADD', KEYS[2], unpack(ARGV))
local page = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '+inf', 'LIMIT', 0, 100)
if #page > 0 then
  redis.call('ZREM', KEYS[3], unpack(page))
end
local last = {}
local lookup = {}
for _, id in ipairs(page) do
  last[1] = id
  lookup[id] = true
end
return {unpack(last), unpack(lookup)}
