-- check: argloops
-- with the switch on, a loop that reads one argument per pass where a
-- missing one raises is reported as a loop over the request's arguments
-- slotlint:keys-tagged
local count = tonumber(ARGV[1])
for i = 1, count do -- want LUA102
  redis.call('TYPE', KEYS[1] .. ARGV[1 + i])
end
return count
