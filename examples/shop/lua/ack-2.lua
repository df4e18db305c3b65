-- Acknowledges a finished job: takes it off the queue's running list and,
-- when its hash still exists, marks it done. Run by hand:
--   redis-cli --eval lua/ack-2.lua 'jobs:{mail}:running' 'jobs:{mail}:job:42' , 42
local removed = redis.call('LREM', KEYS[1], 1, ARGV[1])
-- LUA305: EXISTS answers 0 or 1, and 0 is true in Lua: the hash is
-- written again even when the job was deleted meanwhile (== 1 is meant).
if redis.call('EXISTS', KEYS[2]) then
  redis.call('HSET', KEYS[2], 'state', 'done')
end
return removed
