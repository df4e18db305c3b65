-- count members matching a pattern by walking the whole set
local cursor = '0'
local count = 0
repeat -- want LUA103
  local res = redis.call('SSCAN', KEYS[1], cursor, 'MATCH', ARGV[1], 'COUNT', 100)
  cursor = res[1]
  count = count + #res[2]
until cursor == '0'
return count
