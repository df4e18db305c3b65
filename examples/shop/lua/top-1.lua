-- Per-job-type counters for the admin dashboard:
--   redis-cli --eval lua/top-1.lua 'jobs:{mail}:stats'
-- LUA103: HGETALL returns every field at once: with one field per job
-- type and day the hash grows without end, and so does this call.
return redis.call('HGETALL', KEYS[1])
