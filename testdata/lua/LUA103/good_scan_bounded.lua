-- one bounded slice of an HSCAN per call; the caller keeps the cursor
local cursor = ARGV[1]
local rounds = 0
local fields = {}
repeat
  local res = redis.call('HSCAN', KEYS[1], cursor, 'COUNT', 100)
  cursor = res[1]
  for i = 1, #res[2], 2 do
    fields[#fields + 1] = res[2][i]
  end
  rounds = rounds + 1
until cursor == '0' or rounds >= 10
return {cursor, fields}
