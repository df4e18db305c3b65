-- pattern: a rate limiter whose key gets a group suffix on one path (in
-- the image of Bull's moveToActive rate limiting by group): either way
-- the key is derived from KEYS[1], and shares its slot only if KEYS[1]
-- carries a hash tag
local limiterKey = KEYS[1]
if ARGV[1] ~= '' then
  limiterKey = limiterKey .. ':' .. ARGV[1]
end
local limitedKey = limiterKey .. ':limited'
if redis.call('SISMEMBER', limitedKey, ARGV[2]) == 1 then -- want LUA202
  redis.call('SREM', limitedKey, ARGV[2])
end
return redis.call('SCARD', limitedKey)
