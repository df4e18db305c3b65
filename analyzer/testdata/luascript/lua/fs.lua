return redis.call('INCR', 'global:counter')
