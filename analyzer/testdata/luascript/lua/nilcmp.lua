local v = redis.call('GET', KEYS[1])
if v == nil then return 0 end
return v
