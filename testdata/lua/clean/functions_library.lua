#!lua name=slotlint_counters
-- check: function
local function incr_capped(keys, args)
  local cap = tonumber(args[1])
  local v = redis.call('INCR', keys[1])
  if cap and v > cap then
    redis.call('SET', keys[1], cap)
    return cap
  end
  return v
end

local function peek(keys, args)
  return tonumber(redis.call('GET', keys[1])) or 0
end

redis.register_function('slotlint_incr_capped', incr_capped)
redis.register_function{
  function_name = 'slotlint_peek',
  callback = peek,
  flags = { 'no-writes' },
}
