-- A helper that takes another queue's prefix as a parameter: the keys it
-- builds from that parameter are one cause however its callers got it;
-- what it returns is the caller's data again, not the parameter.
local rcall = redis.call
local function moveToWait(queueKey, jobId)
  rcall('LPUSH', queueKey .. ':wait', jobId) -- want LUA201
  rcall('XADD', queueKey .. ':events', '*', 'event', 'waiting', 'jobId', jobId)
  return queueKey
end
local parentQueue = rcall('HGET', KEYS[1], 'parentQueue')
local other = rcall('HGET', KEYS[1], 'otherQueue')
if parentQueue then
  moveToWait(parentQueue, ARGV[1])
end
if other then
  local q = moveToWait(other, ARGV[1])
  rcall('DEL', q .. ':meta') -- want LUA201
  rcall('DEL', other .. ':old')
end
return 1
