-- check: returnedreads
-- with -returned-reads a whole read returned as the script's reply is
-- reported like any other
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {redis.call('HGETALL', KEYS[2]), ARGV[2]} -- want LUA103
end
return redis.call('ZRANGE', KEYS[1], 0, -1) -- want LUA103
