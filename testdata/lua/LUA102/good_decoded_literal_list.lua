-- check: argloops
-- pattern: a cleanup script that walks a fixed list of fields written as
-- a JSON literal: the script itself bounds the loop, even with loops over
-- the request's arguments reported
local fields = cjson.decode('["lock","meta","tags"]')
for _, f in ipairs(fields) do
  redis.call('HDEL', KEYS[1], f)
end
for i = 1, #fields do
  redis.call('HDEL', KEYS[2], fields[i])
end
return #fields
