-- job queue: the job hash key is built from an id in ARGV
local rcall = redis.call
local jobId = ARGV[1]
local jobKey = 'bull:jobs:' .. jobId
rcall('HSET', jobKey, 'data', ARGV[2]) -- want LUA201
rcall('LPUSH', KEYS[1], jobId)
return jobId
