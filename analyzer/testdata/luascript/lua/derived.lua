-- take a lock next to the job: KEYS[1] is the job, ARGV[1] the owner
local lock = KEYS[1] .. ':lock'
if redis.call('SET', lock, ARGV[1], 'NX', 'PX', 30000) then
  return redis.call('HINCRBY', KEYS[1], 'runs', 1)
end
return false
