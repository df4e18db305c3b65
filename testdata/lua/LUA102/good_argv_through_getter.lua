-- A workflow step in the image of an engine that sends variable-length
-- requests: small getters hand out the next key and the next argument
-- at cursors they advance, and counts in ARGV say how many groups
-- follow. Every pass takes its entries through the getters and passes
-- them to redis.call, which raises on a nil argument ("Lua redis lib
-- command arguments must be strings or integers"), so no count can make
-- a loop outrun the request's own keys and arguments.
local keyAt, argAt, tagAt = 1, 1, #ARGV

local nextKey = function()
  local key = KEYS[keyAt]
  keyAt = keyAt + 1
  return key
end

-- the cursor moved first, then the entry read
local function nextTag()
  tagAt = tagAt + 1
  return ARGV[tagAt]
end

local nextArgPlain = function()
  local arg = ARGV[argAt]
  argAt = argAt + 1
  return arg
end

local history = nextKey()
local timers = nextKey()

local events = tonumber(nextArgPlain())
for i = 1, events do
  local id = nextArgPlain()
  local data = nextArgPlain()
  redis.call('XADD', history, id, 'event', data)
end

local cancelled = tonumber(nextArgPlain())
for i = 1, cancelled do
  local timer = nextKey()
  redis.call('ZREM', timers, timer)
  redis.call('DEL', timer)
end
for i = 1, tonumber(ARGV[1]) do
  redis.call('XADD', history, '*', 'tag', nextTag())
end
return events + cancelled
