#!lua name=slotlint_moves
-- check: keys=1 function
redis.register_function('slotlint_move', function(keys, args)
  return redis.call('LMOVE', keys[1], keys[2], 'LEFT', 'RIGHT') -- want LUA203
end)
