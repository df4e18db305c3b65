local v = redis.call('GET', KEYS[1])
if v then
  return v
-- the "end" is missing
else
  return false
-- want LUA001 (reported at the end of the script)
