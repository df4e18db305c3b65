-- Reentrant lock: KEYS[1] lock hash, ARGV[1] owner token, ARGV[2] ttl ms.
local rcall = redis.call
local lockKey, owner, ttl = KEYS[1], ARGV[1], tonumber(ARGV[2])

if rcall('EXISTS', lockKey) == 0 then
  rcall('HSET', lockKey, owner, 1)
  rcall('PEXPIRE', lockKey, ttl)
  return nil
end
if rcall('HEXISTS', lockKey, owner) == 1 then
  rcall('HINCRBY', lockKey, owner, 1)
  rcall('PEXPIRE', lockKey, ttl)
  return nil
end
return rcall('PTTL', lockKey)
