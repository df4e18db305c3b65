-- pattern: a dashboard view pages through a sorted set with the inclusive
-- start and end the caller passes, an end of -1 meaning "to the end" (in
-- the image of BullMQ's relayGet nodes view and getJobs), and reads a
-- hash per member: the caller decides how many passes run, up to the
-- whole set
local first = tonumber(ARGV[1])
local last = tonumber(ARGV[2])
local rows = {}
local nodes = redis.call('ZRANGE', KEYS[1], first, last, 'WITHSCORES')
for i = 1, #nodes, 2 do -- want LUA102
  local info = redis.call('HGET', KEYS[1] .. ':' .. nodes[i], 'info') -- want LUA202
  rows[#rows + 1] = { nodes[i], nodes[i + 1], info or '' }
end
local ids = redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])
local n = 0
local i = 1
while i <= #ids do -- want LUA102
  n = n + 1 + redis.call('EXISTS', KEYS[2] .. ':' .. ids[i]) -- want LUA202
  i = i + 1
end
-- math.min does not bound a stop of -1: the smaller is still -1.
local stop = math.min(last, first + 99)
local page = redis.call('ZRANGE', KEYS[1], first, stop)
local m = 0
for j = 1, #page do -- want LUA102
  m = m + 1 + redis.call('SISMEMBER', KEYS[3], page[j])
end
rows[#rows + 1] = n
rows[#rows + 1] = m
return rows
