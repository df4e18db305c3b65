-- delete matching fields by walking the whole hash with HSCAN: the only
-- way out is the cursor coming back to "0"
local cursor = '0'
while true do -- want LUA103
  local res = redis.call('HSCAN', KEYS[1], cursor, 'MATCH', ARGV[1], 'COUNT', 100)
  cursor = res[1]
  for i = 1, #res[2], 2 do
    redis.call('HDEL', KEYS[1], res[2][i])
  end
  if cursor == '0' then break end
end
return 1
