-- unpack of whole collections, in the image of a queue that trims its
-- completed set to a kept count the caller passes and archives the ids it
-- trims in one SADD: lowering the kept count by 8,000 makes the trim fail
-- after ZREMRANGEBYRANK has already removed the ids from the set.
local keep = tonumber(ARGV[1])
local excess = redis.call('ZCARD', KEYS[1]) - keep
if excess > 0 then
  local old = redis.call('ZRANGE', KEYS[1], 0, excess - 1) -- want LUA103
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
  local archived = {}
  for i = 1, #old do
    archived[#archived + 1] = 'job:' .. old[i]
  end
  redis.call('SADD', KEYS[2], unpack(archived)) -- want LUA104
end
-- A copy of a whole set in one call; the same copy in slices, and in
-- batches made anew for each slice, which pass at any size.
local mode = ARGV[2]
if mode == 'copy' then
  redis.call('SADD', KEYS[3], unpack(redis.call('SMEMBERS', KEYS[2]))) -- want LUA103 LUA104
elseif mode == 'slices' then
  local members = redis.call('SMEMBERS', KEYS[2]) -- want LUA103
  for i = 1, #members, 5000 do -- want LUA102
    redis.call('SADD', KEYS[3], unpack(members, i, math.min(i + 4999, #members)))
  end
  for i = 1, #members, 1000 do -- want LUA102
    local batch = {}
    for j = i, math.min(i + 999, #members) do
      batch[#batch + 1] = members[j]
    end
    redis.call('SREM', KEYS[2], unpack(batch))
  end
end
-- A table filled with table.insert in an ipairs loop and unpacked twice:
-- one finding, naming the other line.
local seen = {}
for _, id in ipairs(redis.call('HKEYS', KEYS[4])) do -- want LUA103
  table.insert(seen, id)
end
if #seen > 0 then
  redis.call('SADD', KEYS[3], unpack(seen)) -- want LUA104
  redis.call('HDEL', KEYS[4], unpack(seen))
end
