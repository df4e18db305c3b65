-- "goto" inside a string and as a table key written with brackets is fine
local plan = cjson.decode(ARGV[1])
local step = plan["goto"] or "start"
redis.call('HSET', KEYS[1], 'step', step, 'note', 'goto next')
return step
