-- Clean a job list, all of it when the limit is 0 (in the image of BullMQ's
-- cleanJobsInSet with cleanList): on the path where the start stays 0 the
-- read takes the whole list, and the break that waits for `limit` removals
-- never comes when the limit is 0 (and counts only jobs it removes).
local limit = tonumber(ARGV[1])
local rangeStart = 0
if limit > 0 then
  rangeStart = -limit
end
local function cleanList(listKey, first)
  local jobs = redis.call('LRANGE', listKey, first, -1) -- want LUA103
  local deleted = 0
  for _, job in ipairs(jobs) do -- want LUA102
    if limit > 0 and deleted >= limit then
      break
    end
    if redis.call('EXISTS', KEYS[2] .. job .. ':lock') == 0 then -- want LUA202
      redis.call('DEL', KEYS[2] .. job) -- the same cause: named in line 17's finding
      deleted = deleted + 1
    end
  end
  return deleted
end
return cleanList(KEYS[1], rangeStart)
