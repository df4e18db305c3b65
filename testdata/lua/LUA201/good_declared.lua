-- every key comes from KEYS, through aliases, helpers, pcall and unpack;
-- fields, members, channels and patterns built from ARGV are not keys
local rcall = redis.call
local function touch(key, ttl)
  rcall('PEXPIRE', key, ttl)
end
rcall('HSET', KEYS[1], 'field:' .. ARGV[1], ARGV[2])
rcall('ZADD', KEYS[2], ARGV[3], 'member:' .. ARGV[1])
touch(KEYS[1], ARGV[4])
touch(KEYS[2], ARGV[4])
local ok, n = pcall(redis.call, 'ZCARD', KEYS[2])
redis.call('PUBLISH', 'events:' .. ARGV[1], 'updated')
redis.pcall('DEL', unpack(KEYS))
return n
