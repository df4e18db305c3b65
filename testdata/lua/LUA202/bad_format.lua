-- a key derived from KEYS[1] with string.format
redis.call('SADD', string.format('%s:tags', KEYS[1]), ARGV[1]) -- want LUA202
return 1
