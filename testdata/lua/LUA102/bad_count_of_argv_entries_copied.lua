-- The same count-then-entries request as good_count_of_argv_entries.lua,
-- where a pass can outrun the arguments: copying ARGV[1 + i] into a
-- table stores nil past the last one without an error, a read inside a
-- branch or behind "and" may not run on every pass, and a body that sets
-- the loop variable before the read reads the same entry on every pass,
-- so the count the caller passes bounds the loop.
-- slotlint:keys-tagged
local count = tonumber(ARGV[1])
local suffixes = {}
for i = 1, count do -- want LUA102
  suffixes[i] = ARGV[1 + i]
  redis.call('INCR', KEYS[2])
end
for i = 1, count do -- want LUA102
  if i < #ARGV then
    redis.call('TYPE', KEYS[1] .. ARGV[1 + i])
  end
end
for i = 1, count do -- want LUA102
  local member = ARGV[1 + i] and ('job:' .. ARGV[1 + i])
  redis.call('SADD', KEYS[1], member or 'none')
end
for i = 1, count do -- want LUA102
  i = 0
  redis.call('TYPE', KEYS[1] .. ARGV[1 + i])
end
return #suffixes
