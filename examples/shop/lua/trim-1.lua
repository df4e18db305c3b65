-- Drops the oldest failed jobs of a queue:
--   redis-cli --eval lua/trim-1.lua 'jobs:{mail}:failed' , 1000
-- LUA102: the count comes from the caller unchecked: a typo of a few
-- zeros blocks the whole server until the loop ends.
for i = 1, tonumber(ARGV[1]) do
  redis.call('RPOP', KEYS[1])
end
return redis.call('LLEN', KEYS[1])
