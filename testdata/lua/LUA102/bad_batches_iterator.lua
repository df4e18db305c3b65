-- pattern: a job queue that marks every active job as possibly stalled,
-- pushing the whole active list in batches with a helper iterator (in the
-- image of Bull's and BullMQ's moveStalledJobsToWait): the passes, and the
-- items written, grow with the list
local function batches(n, size)
  local i = 0
  return function()
    local from = i * size + 1
    i = i + 1
    if from <= n then
      return from, math.min(n, from + size - 1)
    end
  end
end
local active = redis.call('LRANGE', KEYS[1], 0, -1) -- want LUA103
for from, to in batches(#active, 7000) do -- want LUA102
  redis.call('SADD', KEYS[2], unpack(active, from, to))
end
local page = redis.call('LRANGE', KEYS[1], 0, 999)
for from, to in batches(#page, 100) do
  redis.call('SADD', KEYS[3], unpack(page, from, to))
end
return #active
