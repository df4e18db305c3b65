-- Helpers on local tables, and a shadowed library name, are fine.
local util = {}
function util.extend(dst, src)
  for _, v in ipairs(src) do dst[#dst + 1] = v end
  return dst
end
local table = {}
function table.first(t) return t[1] end
table.size = 3
local Queue = {}
Queue.__index = Queue
function Queue:push(v)
  self[#self + 1] = v
  return #self
end
local q = setmetatable({}, Queue)
q:push(KEYS[1])
return #util.extend({}, {1, 2}) + table.size
