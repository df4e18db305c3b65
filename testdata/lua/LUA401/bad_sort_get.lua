-- GET in SORT is refused on a cluster, even GET #; BY with a pattern too.
local ids = redis.call('SORT', KEYS[1], 'BY', 'nosort', 'GET', '#') -- want LUA401
local byWeight = redis.call('SORT', KEYS[1], 'BY', 'weight_*', 'STORE', KEYS[2]) -- want LUA401
return {#ids, byWeight}
