-- Numbers and tables compared with true or false, in the image of a
-- reaper that counts a digest's matches in a helper and then tests the
-- count against true: a number never equals true, so every digest counts
-- as not found and its locks are deleted.
local function countMatches(key, digest)
  local page = redis.call('ZSCAN', key, 0, 'MATCH', '*' .. digest .. '*', 'COUNT', 100)
  return #page[2]
end

local found = countMatches(KEYS[1], ARGV[1])
if found ~= true then -- want LUA305
  found = countMatches(KEYS[2], ARGV[1])
end
if found ~= true then -- want LUA305
  redis.call('DEL', KEYS[3])
end
if redis.call('SISMEMBER', KEYS[4], ARGV[1]) == true then -- want LUA305
  return 1
end
local members = redis.call('SMEMBERS', KEYS[4]) -- want LUA103
if members == false then -- want LUA305
  return 0
end
return 2
