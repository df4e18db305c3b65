repeat -- want LUA101
  redis.call('INCR', KEYS[1])
until false
