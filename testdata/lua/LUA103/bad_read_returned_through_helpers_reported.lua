-- check: returnedreads
-- the reply is the whole read through helpers, in the image of a queue
-- whose commands return prepareJobForProcessing(...), itself returning
-- {HGETALL job, id}, and which keep a helper's result in a local that
-- they test and return: the caller asked for the record, and with
-- -returned-reads it is reported like any other
-- slotlint:keys-tagged
local function prepare(jobKey, jobId)
  redis.call('HINCRBY', jobKey, 'ats', 1)
  return {redis.call('HGETALL', jobKey), jobId} -- want LUA103
end
local function fetchNext(waitKey, prefix)
  local jobId = redis.call('RPOP', waitKey)
  if jobId then
    return prepare(prefix .. jobId, jobId)
  end
end
if ARGV[1] == '1' then
  local result = fetchNext(KEYS[1], KEYS[2])
  if result and type(result[1]) == 'table' then
    return result
  end
end
return prepare(KEYS[3], ARGV[2])
