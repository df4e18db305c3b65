-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in ARGV[1]
-- pattern: a finished child job tells its parent, whose key the job's
-- hash stores (in the image of BullMQ's moveParentToWait and
-- removeParentDependencyKey): the parent may sit in another queue, under
-- another tag, so the tag of this queue's keys does not cover it
local jobKey = ARGV[1] .. ARGV[2]
local parentKey = redis.call('HGET', jobKey, 'parentKey')
if parentKey then
  redis.call('SREM', parentKey .. ':dependencies', jobKey) -- want LUA201
end
return redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
