-- A rank test that checks nil and false together (in the image of a
-- public feed script's ZREVRANK): the false test does the work, so the
-- redundant nil test is harmless.
local rank = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if rank ~= nil and rank ~= false then
  return rank
end
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score == nil or score == false then
  return -1
end
return score
