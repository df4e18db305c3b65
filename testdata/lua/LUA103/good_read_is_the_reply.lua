-- the script's reply is the whole read, as the caller asked (GroupMQ's
-- get-active-jobs, Bull's moveToActive returning the job hash): the same
-- cost as the command sent alone, so only -returned-reads reports it
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[2], 'processedOn', ARGV[1])
  return {redis.call('HGETALL', KEYS[2]), ARGV[2]}
end
for i = 1, 3 do
  if redis.call('LLEN', KEYS[3]) < i then
    return redis.call('LRANGE', KEYS[3], 0, -1)
  end
end
return redis.call('ZRANGE', KEYS[1], 0, -1)
