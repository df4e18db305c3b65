-- equal to another ARGV value is no more declared than before
local j = cjson.decode(ARGV[2])
local queue = ARGV[1] .. j['name']
local other = ARGV[3]
if other == queue then
  redis.call('lpush', queue, ARGV[2]) -- want LUA201
end
