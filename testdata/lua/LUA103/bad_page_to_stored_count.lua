-- search a sorted set 50 members at a time up to its stored size: the
-- count comes from ZCARD, so the pages end only where the data does
local per = 50
local total = redis.call('ZCARD', KEYS[1])
local index = 0
local found
while index < total do -- want LUA103
  local items = redis.call('ZRANGE', KEYS[1], index, index + per - 1)
  for _, item in ipairs(items) do
    if string.find(item, ARGV[1], 1, true) then
      found = item
    end
  end
  index = index + per
end
return found
