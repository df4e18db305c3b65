-- Moves a job that failed from the running to the failed list:
--   redis-cli --eval lua/fail-2.lua 'jobs:{mail}:running' 'jobs:{mail}:failed' , payload
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[1])
-- LUA203: the failure counter was added later as KEYS[3], but the script
-- still takes 2 keys (its name and every runbook say so): KEYS[3] is nil
-- and HINCRBY fails after the job was already moved.
redis.call('HINCRBY', KEYS[3], 'failed', 1)
return 1
