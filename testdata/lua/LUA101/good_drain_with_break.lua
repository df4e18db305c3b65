-- move at most 100 jobs from the wait list to the active list
local moved = 0
while true do
  local job = redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
  if not job then break end
  moved = moved + 1
  if moved >= 100 then break end
end
return moved
