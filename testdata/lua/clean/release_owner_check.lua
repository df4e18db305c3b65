-- Release only if we still own the lock; notify waiters on KEYS[2].
local owner = redis.call('GET', KEYS[1])
if not owner then
  return 0
end
if owner ~= ARGV[1] then
  return -1
end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', KEYS[2], ARGV[1])
return 1
