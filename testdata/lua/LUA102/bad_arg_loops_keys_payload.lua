-- check: argloops
-- The same payload loops are reported with -arg-loops.
local batch = cjson.decode(KEYS[1])
for _, member in ipairs(batch) do -- want LUA102
  redis.call('SREM', KEYS[2], member)
end
return 1
