-- Reading the newest members by a negative start is a page of fixed size
-- once the start is a constant; a stop that is a plain count is bounded by
-- the caller (and clamped here).
local n = math.min(tonumber(ARGV[1]), 100)
local newest = redis.call('ZRANGE', KEYS[1], -10, -1)
local first = redis.call('ZRANGE', KEYS[1], 0, n - 1)
return {newest, first}
