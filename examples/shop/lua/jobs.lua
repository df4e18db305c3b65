#!lua name=jobs
-- The job queue's functions. The deploy loads this library with
--   redis-cli -x FUNCTION LOAD REPLACE < lua/jobs.lua
-- and the service calls them with FCALL (see jobs/jobs.go). Every call
-- passes keys of one queue, tagged {queue name}.

-- jobs_push(pending; payload) appends a job with the time it was queued.
local function push(keys, args)
  -- LUA302: os is not in Redis's sandbox; the function fails when called.
  local job = cjson.encode({payload = args[1], queued_at = os.time()})
  return redis.call('RPUSH', keys[1], job)
end

-- jobs_claim(pending, running) moves the oldest job to the running list,
-- waiting up to 5 seconds for one.
local function claim(keys, args)
  -- LUA402: a blocking command cannot run in a function: Redis refuses
  -- BLMOVE there, and the queue never hands out a job.
  return redis.call('BLMOVE', keys[1], keys[2], 'LEFT', 'RIGHT', 5)
end

redis.register_function('jobs_push', push)
redis.register_function('jobs_claim', claim)
