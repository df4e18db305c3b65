-- A helper file of a multi-file job queue (in the image of BullMQ's
-- includes/relayIndex.lua): besides its functions it declares a constant
-- they share. The including script defines rcall; checked on its own,
-- the file still only defines things.
local rangeEnd = string.char(255)
local pageSize = 10 * 10

local function hasMember(key, prefix)
  return #rcall("ZRANGEBYLEX", key, "[" .. prefix, "[" .. prefix .. rangeEnd, "LIMIT", 0, 1) > 0
end

local function dropMembers(key, prefix)
  local members = rcall("ZRANGEBYLEX", key, "[" .. prefix, "[" .. prefix .. rangeEnd, "LIMIT", 0, pageSize)
  for _, m in ipairs(members) do
    rcall("ZREM", key, m)
  end
  return #members
end
