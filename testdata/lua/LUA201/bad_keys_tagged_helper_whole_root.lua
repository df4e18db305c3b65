-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in the payload
-- pattern: a job queue adds a child whose payload names its parent job by
-- the parent's whole key, and a helper records the child's result in a
-- hash built on that key (in the image of BullMQ's add-job scripts and
-- updateExistingJobsParent): the helper never uses its parameter whole,
-- but the script does, so the parent's key may be another queue's, under
-- that queue's tag, and so may the hash built on it
local function recordProcessed(parentKey, jobKey, value)
  redis.call('HSET', parentKey .. ':processed', jobKey, value) -- want LUA201
end
local args = cjson.decode(ARGV[1])
local jobKey = args.prefix .. args.id
local parentKey = args.parentKey
if parentKey then
  if redis.call('EXISTS', parentKey) ~= 1 then return -5 end -- want LUA201
  recordProcessed(parentKey, jobKey, args.value)
end
redis.call('HSET', jobKey, 'parentKey', parentKey or '')
return redis.call('LPUSH', KEYS[1], args.id)
