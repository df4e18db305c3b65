-- rate limiter that also bumps a global counter
local current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
redis.call('INCR', 'ratelimit:total') -- want LUA201
return current
