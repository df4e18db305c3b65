-- pattern: a job queue that keeps the newest `count` failed jobs, with
-- the count taken from the job's stored options, and deletes every older
-- one (in the image of Bull's and BullMQ's removeJobsByMaxCount): the
-- read takes every member past the kept ones, however many a backlog or a
-- lowered count leaves
local opts = cjson.decode(redis.call('HGET', KEYS[1], 'opts'))
local keep = opts.removeOnFail
if keep ~= nil and keep > 0 then
  local old = redis.call('ZREVRANGE', KEYS[2], keep, -1) -- want LUA103
  for _, id in ipairs(old) do -- want LUA102
    redis.call('DEL', KEYS[3] .. id) -- want LUA202
  end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(keep + 1))
  return #old
end
return 0
