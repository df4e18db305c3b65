-- A batch helper whose caller packs its items as a JSON document into a
-- KEYS element rather than ARGV (in the image of a public mhset/mdel
-- script): the request carries the items, so the loops cost what it asks
-- for, as over ARGV.
local batch = cjson.decode(KEYS[1])
if ARGV[1] == "mhset" then
  for field, values in pairs(batch) do
    for _, v in pairs(values) do
      redis.call('HSET', KEYS[2], field, v)
    end
  end
else
  for _, member in ipairs(batch) do
    redis.call('SREM', KEYS[2], member)
  end
end
return 1
