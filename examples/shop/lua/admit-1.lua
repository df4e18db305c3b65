-- Admission control: queue a job only while Redis has memory to spare.
--   redis-cli --eval lua/admit-1.lua 'jobs:{mail}:pending' , payload
-- LUA401: INFO is an admin command; scripts must not call it.
-- LUA002: the suppression below gives no reason, so it silences nothing
-- and LUA401 is still reported.
-- slotlint:ignore LUA401
local info = redis.call('INFO', 'memory')
local used = tonumber(string.match(info, 'used_memory:(%d+)'))
local max = tonumber(string.match(info, 'maxmemory:(%d+)'))
if max and max > 0 and used and used > max * 0.9 then
  return 0
end
return redis.call('RPUSH', KEYS[1], ARGV[1])
