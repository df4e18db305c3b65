-- A script rendered from a template that pastes shared helpers into every
-- script (in the image of sidekiq-unique-jobs' shared/_common.lua): the
-- log helper reads names only some scripts define, and this one never
-- calls it, so its body never runs.
local digest = KEYS[1]
local verbose = ARGV[1] == "true"

local function log(message)
  local entry = cjson.encode({digest = digest, job_id = job_id, message = message})
  redis.call("ZADD", changelog, current_time, entry)
end

local function log_debug(...)
  if not verbose then return end
  redis.log(redis.LOG_DEBUG, table.concat({...}, " "))
end

log_debug("DEL", digest)
return redis.call("DEL", digest)
