#!lua flags=no-writes,read-only
-- The day's totals of the main job types, for the status page:
--   redis-cli --eval lua/stats-1.lua 'jobs:{mail}:stats'
-- LUA001: the flag is no-writes; Redis refuses the unknown "read-only"
-- and the script does not load.
local counts = redis.call('HMGET', KEYS[1], 'mail', 'invoice', 'sync')
return counts
