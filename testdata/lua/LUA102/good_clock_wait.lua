-- Clock waits the caller cannot stretch: a clamped timeout, a fixed one,
-- and one whose attempts are capped.
local function nowMillis()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local deadline = nowMillis() + math.min(tonumber(ARGV[2]), 5)
while nowMillis() < deadline do
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then
    return 1
  end
end

local soon = nowMillis() + 2
while nowMillis() < soon do
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then
    return 1
  end
end

local later = nowMillis() + tonumber(ARGV[3])
local tries = 0
while nowMillis() < later do
  tries = tries + 1
  if tries >= 10 then
    break
  end
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then
    return 1
  end
end
return 0
