-- page through due jobs, but at most 10 pages or 500 items per call; the
-- caller calls again while the script returns 1
local offset, pages, moved = 0, 0, 0
while true do
  local page = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', offset, 50)
  if #page == 0 then return 0 end
  for _, id in ipairs(page) do
    redis.call('LPUSH', KEYS[2], id)
  end
  moved = moved + #page
  offset = offset + 50
  pages = pages + 1
  if pages >= 10 or moved >= 500 then return 1 end
end
