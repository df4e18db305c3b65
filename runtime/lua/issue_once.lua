#!lua
-- issue_once: issue one item of a capped pool to a user, at most once.
--
-- KEYS[1]  the set of users who hold an item; its size is the number issued
-- ARGV[1]  the user
-- ARGV[2]  the cap, a positive integer
--
-- Reply: {1, issued} when an item was issued now, {0, issued} when the user
-- already holds one, {-1, issued} when the cap is reached. Only the first
-- reply changes anything.
local issuedType = redis.call('TYPE', KEYS[1])['ok']
if issuedType ~= 'none' and issuedType ~= 'set' then
  return redis.error_reply('WRONGTYPE issued set holds a ' .. issuedType)
end
local issued = redis.call('SCARD', KEYS[1])
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  return {0, issued}
end
if issued >= tonumber(ARGV[2]) then
  return {-1, issued}
end
redis.call('SADD', KEYS[1], ARGV[1])
return {1, issued + 1}
