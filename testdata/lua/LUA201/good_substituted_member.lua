-- string.gsub on members and values, not keys: nothing to report.
local member = string.gsub(ARGV[1], '%s+', '')
redis.call('SADD', KEYS[1], member)
redis.call('HSET', KEYS[2], 'name', (ARGV[2]:gsub('^%s+', '')):lower())
return redis.call('SCARD', KEYS[1])
