-- The same pasted helpers, where the script calls one that reads a name it
-- does not define (in the image of sidekiq-unique-jobs' delete_by_digest,
-- which defines verbose but not debug_lua): the call fails.
local digest = KEYS[1]

local function log_debug(...)
  if debug_lua ~= true then return end -- want LUA302
  redis.log(redis.LOG_DEBUG, table.concat({...}, " "))
end

log_debug("DEL", digest)
return redis.call("DEL", digest)
