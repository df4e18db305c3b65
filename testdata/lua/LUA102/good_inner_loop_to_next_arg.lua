-- a workflow engine's request: a count of target instances, then for each
-- its id and the number of events that follow, each event's fields after
-- it; every pass sets an inner loop's limit from the next argument, and a
-- nil limit raises ("'for' limit must be a number"), so the outer loop
-- cannot outrun the arguments whatever count ARGV[1] gives; the inner loop
-- gives each event to redis.call, which raises on nil, so it cannot either
local at = 2
local nextArg = function()
  local arg = ARGV[at]
  at = at + 1
  return arg
end

for i = 1, tonumber(ARGV[1]) do
  local target = nextArg()
  local events = tonumber(nextArg())
  for j = 1, events do
    redis.call('XADD', KEYS[1], '*', 'target', target, 'event', nextArg())
  end
end
return 0
