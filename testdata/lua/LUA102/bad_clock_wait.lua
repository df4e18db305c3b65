-- Wait for a lock until a deadline the caller sets, polling the server's
-- clock: TIME moves inside a script, so the loop ends at the deadline, but
-- no other client runs a command until then.
local function nowMillis()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local deadline = nowMillis() + tonumber(ARGV[2])
while nowMillis() < deadline do -- want LUA102
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then
    return 1
  end
end

-- The same with the clock read inline and the deadline in the condition.
repeat -- want LUA102
  local ok = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000)
  if ok then
    return 1
  end
until tonumber(redis.call('TIME')[1]) >= tonumber(ARGV[3])

-- A deadline decoded from the request, tested in an exit.
local opts = cjson.decode(ARGV[4])
local stop = tonumber(redis.call('TIME')[1]) + opts.wait
while true do -- want LUA102
  local t = redis.call('TIME')
  if tonumber(t[1]) > stop then
    break
  end
  redis.call('INCR', KEYS[2])
end
return 0
