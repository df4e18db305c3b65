-- A lock on several rows, in the image of a transaction coordinator's
-- script: the first loop reads each KEYS[i] with redis.call, which raises
-- past the last key, so the count from ARGV cannot outrun the keys
-- passed; the second loop to the same count costs what the request asks.
local n = ARGV[1]
local free = {}
for i = 1, n do
  local owner = redis.call('HGET', KEYS[i], 'xid')
  if owner and owner ~= ARGV[2] then
    return 0
  end
  free[i] = not owner
end
for i = 1, n do
  if free[i] then
    redis.call('HSET', KEYS[i], 'xid', ARGV[2])
  end
end
return 1
