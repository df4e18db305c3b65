-- nextFence(counter) increments the fencing counter, the first write of a
-- script that takes a token, and returns the new token, or nil and the
-- error reply to return: WRONGTYPE when the counter is not an integer
-- (INCR then wrote nothing), any other error (OOM, say) as Redis gave it.
local function nextFence(counter)
  local n = redis.pcall('INCR', counter)
  if type(n) == 'table' then
    local e = n['err']
    if string.find(e, '^WRONGTYPE') or string.find(e, '^ERR value is not an integer')
        or string.find(e, '^ERR increment or decrement would overflow') then
      return nil, redis.error_reply('WRONGTYPE fencing key does not hold a counter')
    end
    return nil, n
  end
  return n
end
