-- An inspection view in the image of a pub/sub relay's: the caller asks
-- for rows first..last, and a negative last means all of them, so the
-- page's LIMIT count is -1 on that path and the read takes the whole
-- range. The loop that runs a command per row grows with it; the loop
-- that only splits the rows with a pure helper is Lua work on the read.
local first, last = tonumber(ARGV[1]), tonumber(ARGV[2])
local function window()
  if last < 0 then
    return first, -1
  end
  return first, math.max(0, last - first + 1)
end
local function lexPage(prefix)
  local offset, count = window()
  if count == 0 then
    return {}
  end
  return redis.call('ZRANGEBYLEX', KEYS[1], '[' .. prefix, '(' .. prefix .. '}', 'LIMIT', offset, count) -- want LUA103
end
local function split(value)
  local bar = string.find(value, '|', 1, true)
  return string.sub(value, 1, bar - 1), string.sub(value, bar + 1)
end
local rows = {}
local patterns = lexPage('t|')
for i = 1, #patterns do -- want LUA102
  rows[#rows + 1] = { patterns[i], redis.call('ZLEXCOUNT', KEYS[1], '[p|' .. patterns[i], '(p|' .. patterns[i] .. '}') }
end
local members = lexPage('n|')
for i = 1, #members do
  local node, endpoint = split(members[i])
  rows[#rows + 1] = { node, endpoint }
end
-- A count of -1 written as such reads the whole range too.
local all = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '+inf', 'LIMIT', 0, -1) -- want LUA103
rows[#rows + 1] = all
return rows
