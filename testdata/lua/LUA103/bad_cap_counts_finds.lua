-- reap orphaned entries page by page: the only cap counts what was
-- removed, so a set with nothing to remove is read to its end in one call
local per = 50
local index = 0
local removed = 0
local max = tonumber(ARGV[1])
repeat -- want LUA103
  local page = redis.call('ZREVRANGE', KEYS[1], index, index + per - 1)
  if #page == 0 then break end
  for _, member in ipairs(page) do
    if redis.call('EXISTS', KEYS[2]) == 0 then
      redis.call('ZREM', KEYS[1], member)
      removed = removed + 1
    end
  end
  index = index + per
until removed >= max
return removed
