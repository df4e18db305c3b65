-- assignments to declared locals, upvalues and table fields
local count
count = 0
local M = {}
function M.refill(key)
  count = count + 1
  return redis.call('SET', key, ARGV[1])
end
local function helper() return count end
M.refill(KEYS[1])
return helper()
