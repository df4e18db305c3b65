-- Total of the per-job-type counters for the admin dashboard:
--   redis-cli --eval lua/top-1.lua 'jobs:{mail}:stats'
-- LUA103: HGETALL reads every field to add them up: with one field per
-- job type and day the hash grows without end, and so does this call.
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 2, #counts, 2 do
  total = total + tonumber(counts[i])
end
return total
