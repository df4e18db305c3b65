-- Move stalled jobs back in batches (in the image of bee-queue's
-- checkStalledJobs): the table of stalled jobs is filled from a whole
-- SMEMBERS, so the batch loop over it runs as often as the data says.
local stalling, stalled = redis.call('SMEMBERS', KEYS[1]), {} -- want LUA103
for _, jobId in ipairs(stalling) do -- want LUA102
  if redis.call('LREM', KEYS[2], 0, jobId) > 0 then
    stalled[#stalled + 1] = jobId
  end
end
local pushed = 0
while pushed < #stalled do -- want LUA102
  redis.call('LPUSH', KEYS[3], unpack(stalled, pushed + 1, math.min(pushed + 1000, #stalled)))
  pushed = pushed + 1000
end
local moved = {}
for _, jobId in ipairs(redis.call('SMEMBERS', KEYS[4])) do -- want LUA103
  table.insert(moved, jobId)
end
for i = 1, #moved do -- want LUA102
  redis.call('SREM', KEYS[4], moved[i])
end
return #stalled
