-- a job queue's requeue: the queue's name comes from the job's payload,
-- and the script pushes to it only once it has found it among KEYS, so
-- the key it uses is a declared one (gocraft/work's zrem-lpush)
local res, j, queue
res = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, 1)
if #res > 0 then
  j = cjson.decode(res[1])
  redis.call('zrem', KEYS[1], res[1])
  queue = ARGV[1] .. j['name']
  for _, v in pairs(KEYS) do
    if v == queue then
      redis.call('lpush', queue, cjson.encode(j))
      return 'ok'
    end
  end
  for i = 3, #KEYS do
    local known = KEYS[i]
    if queue == known and ARGV[3] == '1' then
      redis.call('rpush', queue, cjson.encode(j))
      return 'ok'
    end
  end
  redis.call('zadd', KEYS[2], ARGV[2], cjson.encode(j))
  return 'dead'
end
return nil
