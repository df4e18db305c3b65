-- Store a JSON job and index it; the payload decides fields, not keys.
local job = cjson.decode(ARGV[1])
if type(job) ~= 'table' or not job.id then
  return redis.error_reply('bad job')
end
redis.call('HSET', KEYS[1], 'payload', ARGV[1], 'priority', job.priority or 0)
redis.call('ZADD', KEYS[2], job.priority or 0, job.id)
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if attempts > 5 then
  redis.call('ZREM', KEYS[2], job.id)
end
return cjson.encode({ id = job.id, attempts = attempts })
