-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in ARGV[1]
-- pattern: a job queue that passes its key prefix in ARGV and builds
-- job keys from it (in the image of Bull's and BullMQ's moveToActive and
-- promote scripts): with the prefix's tag, every such key shares the
-- slot of the keys it declares
local jobId = redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
if not jobId then
  return nil
end
local jobKey = ARGV[1] .. jobId
redis.call('SET', jobKey .. ':lock', ARGV[2], 'PX', 30000)
redis.call('HSET', jobKey, 'processedOn', ARGV[3])
return redis.call('HMGET', jobKey, 'data', 'opts')
