-- Booleans and replies that may be false compared with true or false.
local found = false
local page = redis.call('ZSCAN', KEYS[1], 0, 'MATCH', ARGV[1], 'COUNT', 100)
if #page[2] > 0 then
  found = true
end
if found ~= true then
  redis.call('DEL', KEYS[2])
end
local owner = redis.call('GET', KEYS[3])
if owner == false then
  return 0
end
local debug = ARGV[2] == 'true'
if debug == true then
  redis.log(redis.LOG_NOTICE, owner)
end
return redis.call('SISMEMBER', KEYS[4], owner) == 1
