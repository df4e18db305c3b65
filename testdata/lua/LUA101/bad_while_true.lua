-- fan-out worker that forgot its exit: LPUSH never makes the loop end
while true do -- want LUA101
  redis.call('LPUSH', KEYS[1], ARGV[1])
end
