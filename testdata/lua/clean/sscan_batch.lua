-- Remove expired members in bounded SSCAN batches; returns the cursor.
local cursor = ARGV[1]
local limit = 20
local removed = 0
local rounds = 0
while rounds < limit do
  local res = redis.call('SSCAN', KEYS[1], cursor, 'COUNT', 100)
  cursor = res[1]
  for _, member in ipairs(res[2]) do
    if redis.call('ZSCORE', KEYS[2], member) == false then
      redis.call('SREM', KEYS[1], member)
      removed = removed + 1
    end
  end
  rounds = rounds + 1
  if cursor == '0' then break end
end
return { cursor, removed }
