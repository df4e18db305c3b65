count = 0 -- want LUA301
function refill(key) -- want LUA301
  return redis.call('SET', key, ARGV[1])
end
return 1
