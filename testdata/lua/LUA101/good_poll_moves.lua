-- polls whose state moves: the clock, a key the loop writes, a pop (capped,
-- or it would drain the list: LUA103), a
-- decision that leaves on both branches, and a helper that may raise
local deadline = tonumber(redis.call('TIME')[1]) + 1
while true do
  local now = redis.call('TIME')
  if tonumber(now[1]) >= deadline then break end
end
while true do
  local v = redis.call('GET', KEYS[1])
  if v == ARGV[1] then break end
  redis.call('SET', KEYS[1], ARGV[1])
end
local popped = 0
repeat
  local job = redis.call('RPOP', KEYS[2])
  popped = popped + 1
until not job or popped >= 100
while true do
  if redis.call('EXISTS', KEYS[3]) == 1 then
    break
  else
    return 0
  end
end
local function check()
  if redis.call('GET', KEYS[4]) then error('busy') end
end
while true do
  check()
  if redis.call('EXISTS', KEYS[5]) == 1 then break end
end
return 1
