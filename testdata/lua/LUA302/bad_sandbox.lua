local now = os.time() -- want LUA302
print('refilling') -- want LUA302
local json = require('cjson') -- want LUA302
redis.call('SET', KEYS[1], now)
return now
