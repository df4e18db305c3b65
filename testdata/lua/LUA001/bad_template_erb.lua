-- rendered by the application before it reaches Redis
local key = KEYS[1]
local limit = <%= @limit %> -- want LUA001
return redis.call('INCRBY', key, limit)
