-- Promote due delayed jobs in pages of 100, at most 10 pages per call.
local delayed, wait = KEYS[1], KEYS[2]
local now = ARGV[1]
local moved = 0
for page = 1, 10 do
  local due = redis.call('ZRANGEBYSCORE', delayed, '-inf', now, 'LIMIT', 0, 100)
  if #due == 0 then break end
  for _, id in ipairs(due) do
    redis.call('ZREM', delayed, id)
    redis.call('LPUSH', wait, id)
    moved = moved + 1
  end
end
return moved
