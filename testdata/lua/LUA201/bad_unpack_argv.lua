-- bulk delete of keys named by the caller in ARGV
redis.call('INCR', KEYS[1])
return redis.call('DEL', unpack(ARGV)) -- want LUA201
