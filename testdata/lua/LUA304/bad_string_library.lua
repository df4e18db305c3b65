-- A reply that may be false given to the string library, in the image of
-- a reaper that looks for a digest in each worker's info field: a worker
-- without the field makes string.find raise, and the whole run fails.
local info = redis.call('HGET', KEYS[1], 'info')
if string.find(info, ARGV[1], 1, true) then -- want LUA304
  return 1
end
local owner = redis.call('GET', KEYS[2])
return #string.lower(owner) -- want LUA304
