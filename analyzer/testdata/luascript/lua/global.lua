count = 1
return redis.call('INCR', KEYS[1])
