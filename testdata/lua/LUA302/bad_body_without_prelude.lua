-- pattern: the body of a script that an application joins after a shared
-- header at run time (in the image of Bottleneck's scripts, which read
-- the header's now and settings_key and call its process_tick). Checked
-- alone it fails at its first read: one finding names every such global,
-- and -prelude with the header makes it clean.
local weight = tonumber(ARGV[num_static_argv + 1]) -- want LUA302
local capacity = process_tick(now, false)['capacity']
local maxConcurrent = tonumber(redis.call('hget', settings_key, 'maxConcurrent'))
redis.call('hincrby', settings_key, 'done', weight)
return { capacity, maxConcurrent, now }
