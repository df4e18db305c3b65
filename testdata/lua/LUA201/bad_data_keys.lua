-- Keys built from caller data or stored data, the patterns of job-queue
-- scripts: a field of decoded JSON, an id popped from a list, a prefix
-- plus a worker name, the same through a helper and string.format (one
-- finding for both: ARGV[2]'s tag decides them).
local job = cjson.decode(ARGV[1])
redis.call('LPUSH', 'queue:' .. job.queue, job.id) -- want LUA201
local worker = ARGV[2]
redis.call('SADD', 'ql:w:' .. worker .. ':jobs', job.id) -- want LUA201
local function workerKey(w, what)
  return string.format('ql:w:%s:%s', w, what)
end
redis.call('SET', workerKey(worker, 'seen'), 1) -- ARGV[2] again: named by the SADD's finding
local id = redis.call('RPOP', KEYS[1])
if id then
  redis.call('HSET', 'job:' .. id, 'state', 'active') -- want LUA201
end
local stored = cjson.decode(redis.call('GET', KEYS[2]) or '{}')
if stored.next then
  redis.call('DEL', 'job:' .. stored.next) -- want LUA201
end
return 1
