-- Moves up to 1000 jobs left in a queue's running list back to pending,
-- after a worker crashed; run it again while it returns 1000. Run by hand:
--   redis-cli --eval lua/requeue-2.lua 'jobs:{mail}:pending' 'jobs:{mail}:running'
-- (scripts in lua/ are named NAME-N.lua, N the number of keys they take).
local moved = 0
for _ = 1, 1000 do
  local job = redis.call('RPOPLPUSH', KEYS[2], KEYS[1])
  -- LUA303: an empty list replies nil, which Lua sees as false, never
  -- nil: the loop does not stop there, and returns 1000 however few moved.
  if job == nil then
    break
  end
  moved = moved + 1
end
return moved
