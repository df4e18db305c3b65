-- the condition variable is written by a helper the body calls
local done = false
local seen = 0
local function step()
  local v = redis.call('LPOP', KEYS[1])
  seen = seen + 1
  if not v or seen >= 50 then
    done = true
  end
end
while not done do
  step()
end
return seen
