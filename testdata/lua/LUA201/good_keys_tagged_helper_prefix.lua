-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in the payload
-- pattern: the same add-job script as bad_keys_tagged_helper_whole_root.lua
-- where the helper builds keys on the queue's prefix from the payload,
-- which nothing uses as a whole key: the prefix's tag covers them
local function addEvent(prefix, jobId)
  redis.call('XADD', prefix .. 'events', '*', 'event', 'added', 'jobId', jobId)
  redis.call('INCR', prefix .. 'added')
end
local args = cjson.decode(ARGV[1])
local jobKey = args.prefix .. args.id
redis.call('HSET', jobKey, 'name', args.name)
addEvent(args.prefix, args.id)
return redis.call('LPUSH', KEYS[1], args.id)
