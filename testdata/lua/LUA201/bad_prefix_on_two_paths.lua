-- pattern: the same job key as good_keys_tagged_prefix_on_two_paths.lua,
-- without the project saying its prefix is tagged: the key built on
-- either path is one finding with the other keys of the prefix in
-- ARGV[1], at the first of them
local jobId
local jobKey
local counter = redis.call('INCR', KEYS[1])
if ARGV[2] == '' then
  jobId = counter
  jobKey = ARGV[1] .. jobId
else
  jobId = ARGV[2]
  jobKey = ARGV[1] .. jobId
  if redis.call('EXISTS', jobKey) == 1 then -- want LUA201
    return jobId
  end
end
redis.call('HSET', jobKey, 'name', ARGV[3], 'data', ARGV[4])
redis.call('LPUSH', KEYS[2], jobId)
return jobId
