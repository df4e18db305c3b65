-- The same view with the count clamped: a negative last asks for the
-- largest page the script allows, never for every row.
local first, last = tonumber(ARGV[1]), tonumber(ARGV[2])
local function window()
  if last < 0 then
    return first, 100
  end
  return first, math.min(100, math.max(0, last - first + 1))
end
local offset, count = window()
local rows = {}
local patterns = redis.call('ZRANGEBYLEX', KEYS[1], '[t|', '(t|}', 'LIMIT', offset, count)
for i = 1, #patterns do
  rows[#rows + 1] = { patterns[i], redis.call('ZLEXCOUNT', KEYS[1], '[p|' .. patterns[i], '(p|' .. patterns[i] .. '}') }
end
return rows
