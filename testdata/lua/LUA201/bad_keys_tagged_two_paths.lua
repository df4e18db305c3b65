-- slotlint:keys-tagged the queue's prefix "{q}:name:" comes in KEYS and in ARGV[1]
-- pattern: keys set on two paths (in the image of a job queue's add-job
-- and retry scripts) whose slot the queue's prefix does not decide on
-- both: the job's key on one path and a key read from the job's hash on
-- the other, or a key built on the prefix on one path and the caller's
-- whole key on the other. The tag on the prefix covers neither.
local target
if ARGV[2] == '' then
  target = ARGV[1] .. 'wait'
else
  target = redis.call('HGET', KEYS[1], 'queue')
end
redis.call('LPUSH', target, ARGV[3]) -- want LUA201
local parent
if ARGV[4] == '' then
  parent = ARGV[1] .. ARGV[3]
else
  parent = ARGV[4]
end
redis.call('SADD', parent, ARGV[3]) -- want LUA201
return 1
