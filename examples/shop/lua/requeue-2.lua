-- Moves every job left in a queue's running list back to pending, after
-- a worker crashed. Run by hand:
--   redis-cli --eval lua/requeue-2.lua 'jobs:{mail}:pending' 'jobs:{mail}:running'
-- (scripts in lua/ are named NAME-N.lua, N the number of keys they take).
local moved = 0
while true do
  local job = redis.call('RPOPLPUSH', KEYS[2], KEYS[1])
  -- LUA303: an empty list replies nil, which Lua sees as false, never
  -- nil: the loop does not stop there.
  if job == nil then
    break
  end
  moved = moved + 1
end
return moved
