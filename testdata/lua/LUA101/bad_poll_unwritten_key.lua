-- wait for a flag another client would set: it cannot run while the
-- script does; the loop writes only another key
local tries = 0
repeat -- want LUA101
  redis.call('INCR', KEYS[2])
  local state = redis.call('GET', KEYS[1])
until state == ARGV[1]
return tries
