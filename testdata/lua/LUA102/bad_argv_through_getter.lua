-- The getters of good_argv_through_getter.lua, where a pass can outrun
-- the request: an entry only copied, or passed to redis.pcall (which
-- returns the error instead of raising), a getter that does more than
-- take the next entry, a body that moves the cursor back, and a getter
-- whose cursor is its own local, so every call reads the same entry.
local argAt = 1

local nextArg = function()
  local arg = ARGV[argAt]
  argAt = argAt + 1
  return arg
end

local nextArgOrDefault = function()
  local arg = ARGV[argAt]
  argAt = argAt + 1
  if arg == nil then
    return 'none'
  end
  return arg
end

local firstArg = function()
  local at = 1
  local arg = ARGV[at]
  at = at + 1
  return arg
end

local count = tonumber(nextArg())
local seen = {}
for i = 1, count do -- want LUA102
  seen[i] = nextArg()
  redis.call('INCR', KEYS[1])
end
for i = 1, count do -- want LUA102
  redis.pcall('SADD', KEYS[1], nextArg())
end
for i = 1, count do -- want LUA102
  redis.call('SADD', KEYS[1], nextArgOrDefault())
end
for i = 1, count do -- want LUA102
  local member = nextArg()
  argAt = argAt - 1
  redis.call('SADD', KEYS[1], member)
end
for i = 1, count do -- want LUA102
  redis.call('SADD', KEYS[1], firstArg())
end
return #seen
