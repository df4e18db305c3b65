-- a key compared equal to a KEYS element is declared only inside the
-- guard: after it, it is the payload's name again
local j = cjson.decode(ARGV[2])
local queue = ARGV[1] .. j['name']
for _, v in pairs(KEYS) do
  if v == queue then
    break
  end
end
redis.call('lpush', queue, ARGV[2]) -- want LUA201
