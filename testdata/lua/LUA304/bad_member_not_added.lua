-- ZADD XX adds nothing that is not there; a union stored over the key, a
-- ZREM or another key's ZADD leaves the member's rank unknown.
redis.call('ZADD', KEYS[1], 'XX', 1, ARGV[1])
if redis.call('ZRANK', KEYS[1], ARGV[1]) < 3 then -- want LUA304
  return 1
end
redis.call('ZADD', KEYS[2], 1, ARGV[1])
redis.call('ZUNIONSTORE', KEYS[2], 1, KEYS[3])
local rank = redis.call('ZREVRANK', KEYS[2], ARGV[1]) + 1 -- want LUA304
redis.call('ZADD', KEYS[3], 1, ARGV[1])
return rank + redis.call('ZRANK', KEYS[2], ARGV[1]) -- want LUA304
