-- A helper file of a multi-file job queue (in the image of BullMQ's
-- includes/removeJobs.lua): it only defines functions, and the script that
-- includes it defines rcall and removeJob before calling them. Checked on
-- its own, those names are not missing.
local function removeJobs(keys, hard, baseKey, max)
  for i, key in ipairs(keys) do
    if i > max then
      break
    end
    removeJob(key, hard, baseKey)
  end
  return max
end

local function trimList(listKey, keep)
  rcall("LTRIM", listKey, 0, keep - 1)
end
