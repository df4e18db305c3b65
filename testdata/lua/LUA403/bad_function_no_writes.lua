#!lua name=counters
-- check: function
redis.register_function{
  function_name = 'counters_peek',
  callback = function(keys, args)
    return redis.call('INCR', keys[1]) -- want LUA403
  end,
  flags = { 'no-writes' },
}
