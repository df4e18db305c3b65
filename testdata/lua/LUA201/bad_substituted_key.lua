-- Keys named by putting an id into a pattern the caller passes, in the
-- image of a semaphore that wakes its next waiter: the pattern is ARGV
-- data and the id a reply, and neither is in KEYS. The key is one cause,
-- reported once for its two uses.
local pattern = ARGV[1] -- "sem:notify:@@ID@@"
local nextId = redis.call('ZPOPMIN', KEYS[1])[1]
if nextId then
  local wake = string.gsub(pattern, '@@ID@@', nextId, 1)
  redis.call('RPUSH', wake, '1') -- want LUA201
  redis.call('EXPIRE', wake, 10)
end
-- The method form, with the id from the request.
redis.call('SET', (ARGV[2]:gsub('@@ID@@', ARGV[3])), '1') -- want LUA201
-- A stored id put into a literal pattern: the key is read from data.
local owner = redis.call('HGET', KEYS[2], 'owner')
redis.call('DEL', (string.gsub('lock:@@ID@@', '@@ID@@', owner))) -- want LUA201
return 1
