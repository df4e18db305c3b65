local function bump(key, by)
  return redis.call('INCRBY', key, by) -- want LUA201
end
bump(KEYS[1], 1)
bump('metrics:hits', 1)
return 1
