-- pattern: a message bus that acknowledges by popping its "waiting for
-- ack" list up to the last acked id, and puts every un-acked message back
-- on the queue by popping until the list is empty (in the image of
-- busmq's ack script): each loop moves as many items as the list holds,
-- in one script call
local lastack = tonumber(ARGV[1])
local cont = true
while cont do -- want LUA103
  local id = redis.call('LPOP', KEYS[1])
  if not id then return 0 end
  if tonumber(id) > lastack then
    redis.call('LPUSH', KEYS[1], id)
    cont = false
  end
end
local moved = 0
while true do -- want LUA103
  local element = redis.call('RPOP', KEYS[1])
  if not element then break end
  redis.call('LPUSH', KEYS[2], element)
  moved = moved + 1
end
return moved
