-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in the payload
-- pattern: a job queue adds a child job whose payload names its parent
-- job by the parent's whole key (in the image of BullMQ's add-job
-- scripts and updateExistingJobsParent): the parent may sit in another
-- queue, under that queue's tag, so the tag on this queue's keys and
-- prefix does not cover it, nor the parent's dependencies set built on it
local args = cjson.decode(ARGV[1])
local jobKey = args.prefix .. args.id
local parentKey = args.parentKey
if parentKey then
  if redis.call('EXISTS', parentKey) ~= 1 then return -5 end -- want LUA201
  redis.call('SADD', parentKey .. ':dependencies', jobKey)
end
redis.call('HSET', jobKey, 'parentKey', parentKey or '')
return redis.call('LPUSH', KEYS[1], args.id)
