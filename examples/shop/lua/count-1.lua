-- Counts the pending jobs of one type, for the admin dashboard:
--   redis-cli --eval lua/count-1.lua 'jobs:{mail}:pending' , '"type":"invoice"'
-- LUA101: the loop was meant to stop at the end of the list, but the
-- "if not job then break end" was forgotten: past the end LINDEX replies
-- nil forever and the server stays BUSY.
local found, i = 0, 0
while true do
  local job = redis.call('LINDEX', KEYS[1], i)
  if job and string.find(job, ARGV[1], 1, true) then
    found = found + 1
  end
  i = i + 1
end
return found
