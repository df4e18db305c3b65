-- the list was stored by earlier calls and grows with them: decoding it
-- from a reply makes the loop as long as the data
local raw = redis.call('GET', KEYS[1]) or '[]'
local waiters = cjson.decode(raw)
for _, w in ipairs(waiters) do -- want LUA102
  redis.call('LPUSH', KEYS[2], w)
end
-- a count inside the request's JSON is still a number the caller picks
local opts = cjson.decode(ARGV[1])
for i = 1, opts.count do -- want LUA102
  redis.call('RPOPLPUSH', KEYS[2], KEYS[3])
end
return #waiters
