-- tonumber(false) really is nil, and so is a missing array element
local n = tonumber(redis.call('GET', KEYS[1]))
if n == nil then n = 0 end
local page = redis.call('LRANGE', KEYS[2], 0, 9)
if page[1] == nil then return n end
local owner = redis.call('GET', KEYS[3])
if owner == false then return 0 end
return n + #page
