-- Expire finished jobs beyond the newest `keep` (in the image of qless's
-- completed-job cleanup): the stop counted back from the end reads every
-- older job, however many have piled up, and the loop deletes each.
local keep = tonumber(ARGV[1])
local old = redis.call('ZRANGE', KEYS[1], 0, (-1 - keep)) -- want LUA103
for _, jid in ipairs(old) do -- want LUA102
  redis.call('DEL', KEYS[2] .. jid) -- want LUA202
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, (-1 - keep))
return #old
