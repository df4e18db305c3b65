local n = redis.call('GET', KEYS[1])
return n + 1
