-- Redis's own libraries, and names shadowed by locals
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.log(redis.LOG_NOTICE, 'refill at ' .. now)
local packed = cmsgpack.pack({now, ARGV[1]})
local sum = bit.band(now, 0xff) + struct.unpack('>I4', struct.pack('>I4', 7))
local os = { time = function() return now end }
local function log(...)
  return select('#', ...)
end
redis.call('SET', KEYS[1], cjson.encode({ at = os.time(), n = log(1, 2), s = sum, p = #packed }))
return now
