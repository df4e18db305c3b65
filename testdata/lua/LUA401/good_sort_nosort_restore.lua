-- SORT BY nosort STORE reads and writes only the declared keys; RESTORE
-- writes only its (declared) key.
local n = redis.call('SORT', KEYS[1], 'BY', 'nosort', 'STORE', KEYS[2])
local payload = redis.call('DUMP', KEYS[1])
if payload then
  redis.call('RESTORE', KEYS[3], 0, payload, 'REPLACE')
end
return n
