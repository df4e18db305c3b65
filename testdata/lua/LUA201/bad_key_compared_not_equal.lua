-- under "~=" the key differs from the KEYS element it was compared with
local j = cjson.decode(ARGV[2])
local queue = ARGV[1] .. j['name']
for _, v in pairs(KEYS) do
  if v ~= queue then
    redis.call('lpush', queue, ARGV[2]) -- want LUA201
  end
end
