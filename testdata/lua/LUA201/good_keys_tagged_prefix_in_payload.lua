-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in the payload
-- pattern: a job queue whose payload carries the queue's own key prefix
-- (in the image of BullMQ's add-job scripts, args[1]): every key built
-- on it takes its tag, the declared keys' tag
local args = cjson.decode(ARGV[1])
local jobKey = args.prefix .. args.id
redis.call('HSET', jobKey, 'name', args.name)
redis.call('SET', jobKey .. ':lock', 'w1', 'PX', 30000)
return redis.call('LPUSH', KEYS[1], args.id)
