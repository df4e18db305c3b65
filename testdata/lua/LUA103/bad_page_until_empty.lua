-- copy a whole sorted-set range page by page in one call: LIMIT bounds
-- each page, nothing bounds the number of pages
local offset = 0
local copied = 0
while true do -- want LUA103
  local page = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[2], 'LIMIT', offset, 100)
  if #page == 0 then break end
  for _, id in ipairs(page) do
    redis.call('SADD', KEYS[2], id)
  end
  copied = copied + #page
  offset = offset + 100
end
return copied
