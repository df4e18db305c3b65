-- One finding per cause, in the image of job-queue scripts that build
-- every key of a job from the queue prefix the client passes in ARGV,
-- and of scripts that follow a parent key stored in the job's hash.
local rcall = redis.call
local prefix = ARGV[1]
local jobId = rcall('RPOPLPUSH', KEYS[1], KEYS[2])
if not jobId then return nil end
local jobKey = prefix .. jobId
rcall('SET', jobKey .. ':lock', ARGV[3], 'PX', 30000) -- want LUA201
rcall('HSET', jobKey, 'processedOn', ARGV[4])
local data = rcall('HGET', jobKey, 'data')
-- Another prefix is another cause.
rcall('ZADD', ARGV[2] .. ':stalled', 0, jobId) -- want LUA201
-- A literal tag before the prefix decides the slot itself.
rcall('INCR', '{stats}:' .. prefix .. ':started') -- want LUA201
-- The parent key stored in the job's hash: every key built from it is
-- one cause, wherever the parent lives.
local parentKey = rcall('HGET', jobKey, 'parentKey')
if parentKey then
  rcall('SREM', parentKey .. ':dependencies', jobKey) -- want LUA201
  rcall('SCARD', parentKey .. ':dependencies')
  rcall('HINCRBY', parentKey, 'pending', -1)
end
-- A second stored key read elsewhere is its own cause.
local next = rcall('LINDEX', KEYS[2], 0)
if next then
  rcall('HGET', next, 'state') -- want LUA201
end
-- Two fields of one payload are two causes: the parent's key, which may
-- be in another queue, and the prefix of the job's own queue.
local args = cjson.decode(ARGV[5])
if args.parentKey then
  rcall('EXISTS', args.parentKey) -- want LUA201
  rcall('SADD', args.parentKey .. ':dependencies', ARGV[6])
end
rcall('HSET', args.prefix .. ARGV[6], 'state', 'added') -- want LUA201
return data
