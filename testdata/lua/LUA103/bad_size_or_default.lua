-- pattern: trim the oldest finished jobs past a kept count, the set's
-- size read defensively as "(ZCARD or 0)" (in the image of GroupMQ's
-- get-waiting-count and record-job-result): the stop is still computed
-- from the size, so the read takes every member but the kept ones
local keep = tonumber(ARGV[1])
local total = (redis.call('ZCARD', KEYS[1]) or 0)
local old = redis.call('ZRANGE', KEYS[1], 0, total - keep - 1) -- want LUA103
for i = 1, #old do -- want LUA102
  redis.call('HDEL', KEYS[2], old[i])
end
return #old
