-- Moves failed jobs back to pending for another try, skipping those that
-- failed too often:
--   redis-cli --eval lua/retry-2.lua 'jobs:{mail}:failed' 'jobs:{mail}:pending'
local retried = 0
for _, job in ipairs(redis.call('LRANGE', KEYS[1], 0, 99)) do
  local tries = tonumber(string.match(job, '"tries":(%d+)')) or 0
  if tries < 5 then
    redis.call('RPUSH', KEYS[2], job)
    -- LUA301: a typo: "retired" is a new global, which Redis refuses to
    -- create ("Attempt to modify a readonly table").
    retired = retried + 1
  end
end
redis.call('LTRIM', KEYS[1], 100, -1)
return retried
