-- keys derived from KEYS[1] through a helper and through string.format:
-- one finding at the first, naming the line of the other, since one hash
-- tag on KEYS[1] decides both
local function metaKey(k)
  return k .. ':meta'
end
redis.call('HSET', metaKey(KEYS[1]), 'updated', ARGV[1]) -- want LUA202
redis.call('SADD', string.format('%s:tags', KEYS[1]), ARGV[2])
return 1
