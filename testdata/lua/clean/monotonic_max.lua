-- Store ARGV[1] in KEYS[1] only if it is larger than what is there.
local cur = tonumber(redis.call('GET', KEYS[1]))
local v = tonumber(ARGV[1])
if v == nil then
  return redis.error_reply('value is not a number')
end
if cur == nil or v > cur then
  redis.call('SET', KEYS[1], ARGV[1])
  return 1
end
return 0
