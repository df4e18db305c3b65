-- pattern: a group queue that keeps the newest `keep` completed jobs and
-- trims the rest after each completion (in the image of GroupMQ's
-- record-job-result): the stop is the set's size minus the kept count, so
-- the read takes every member past the kept ones, however many a backlog
-- or a lowered `keep` leaves
local keep = tonumber(ARGV[1])
local zcount = redis.call('ZCARD', KEYS[1])
local toRemove = zcount - keep
if toRemove > 0 then
  local oldIds = redis.call('ZRANGE', KEYS[1], 0, toRemove - 1) -- want LUA103
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, toRemove - 1)
  return #oldIds
end
return 0
