-- pattern: a rate limiter whose counters are named in a JSON literal the
-- script carries (a config table written as JSON): the keys are literals,
-- wherever KEYS[1] lives
local cfg = cjson.decode('{"total":"ratelimit:json:total","window":60}')
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], cfg.window)
redis.call('INCR', cfg.total) -- want LUA201
return n
