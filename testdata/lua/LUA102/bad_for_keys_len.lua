-- delete every key passed: as many as the caller sends
for i = 1, #KEYS do -- want LUA102
  redis.call('UNLINK', KEYS[i])
end
return #KEYS
