-- A member the script has just added with ZADD (NX keeps one already
-- there) has a rank and a score.
redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]) * 2, ARGV[2], 0, 'other')
if redis.call('ZREVRANK', KEYS[1], ARGV[2]) >= 10 then
  return 0
end
local ticket = redis.call('ZRANK', KEYS[2], ARGV[2]) + 1
return ticket + tonumber(redis.call('ZSCORE', KEYS[2], 'other'))
