-- String functions on replies the script knows are there: the key's
-- existence or type was tested first (the script returns when it is
-- missing), or the reply was tested itself.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('missing')
end
local raw = redis.call('GET', KEYS[1])
local digits = string.match(raw, '^(%d+)$')
local info = redis.call('HGET', KEYS[3], 'info')
if info and string.find(info, 'w', 1, true) then
  return {digits or '', 'busy'}
end
local kind = redis.call('TYPE', KEYS[2])['ok']
if kind == 'none' then
  return {digits or '', 'none'}
end
local name = redis.call('GET', KEYS[2])
return {digits or '', string.lower(name), (redis.call('GET', KEYS[2]) or ''):upper()}
