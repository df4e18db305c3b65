-- fixed pages and tails: all bounded
local head = redis.call('LRANGE', KEYS[1], 0, 99)
local tail = redis.call('LRANGE', KEYS[1], -10, -1)
local top = redis.call('ZREVRANGE', KEYS[2], 0, 9, 'WITHSCORES')
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 50)
local page = redis.call('ZRANGE', KEYS[2], '-inf', '+inf', 'BYSCORE', 'LIMIT', 0, 50)
local name = redis.call('HGET', KEYS[3], 'name')
local n = redis.call('SCARD', KEYS[4])
return {#head, #tail, #top, #due, #page, name, n}
