-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in ARGV[1]
-- pattern: a job queue names a new job by a counter or by the caller's
-- custom id, and builds its key from the queue prefix on either path (in
-- the image of Bull's addJob and BullMQ's add-job scripts): the prefix
-- decides the slot on both paths, so with its tag the key shares the
-- slot of the keys the script declares
local jobId
local jobKey
local counter = redis.call('INCR', KEYS[1])
if ARGV[2] == '' then
  jobId = counter
  jobKey = ARGV[1] .. jobId
else
  jobId = ARGV[2]
  jobKey = ARGV[1] .. jobId
  if redis.call('EXISTS', jobKey) == 1 then
    return jobId
  end
end
redis.call('HSET', jobKey, 'name', ARGV[3], 'data', ARGV[4])
redis.call('LPUSH', KEYS[2], jobId)
return jobId
