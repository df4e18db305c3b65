-- Total of the per-job-type counters for the admin dashboard, which then
-- starts them again from zero:
--   redis-cli --eval lua/top-1.lua 'jobs:{mail}:stats'
-- LUA103: HGETALL reads every field to add them up: with one field per
-- job type and day the hash grows without end, and so does this call.
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
local fields = {}
for i = 1, #counts, 2 do
  fields[#fields + 1] = counts[i]
  total = total + tonumber(counts[i + 1])
end
-- LUA104: one HDEL of every field: once the hash has 8,000 fields unpack
-- fails, and the counters can never be started again.
if #fields > 0 then
  redis.call('HDEL', KEYS[1], unpack(fields))
end
return total
