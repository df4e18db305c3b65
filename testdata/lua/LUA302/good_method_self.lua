-- Colon-defined methods bind self as a parameter.
local Lock = {}
Lock.__index = Lock
function Lock:owner()
  return redis.call('GET', self.key)
end
function Lock.new(key)
  return setmetatable({key = key}, Lock)
end
local l = Lock.new(KEYS[1])
return l:owner()
