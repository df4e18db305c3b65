-- {{...}} is a table of tables, and @ inside strings is text
local pairsList = {{KEYS[1], ARGV[1]}, {KEYS[2], ARGV[2]}}
local email = 'ops@example.com <%= not a tag %>'
for _, p in ipairs(pairsList) do
  redis.call('SET', p[1], p[2] .. email)
end
return #pairsList
