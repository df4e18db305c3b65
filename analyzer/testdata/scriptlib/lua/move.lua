local id = redis.call("LPOP", KEYS[1])
if id then
  redis.call("RPUSH", KEYS[2], id)
  redis.call("HSET", ARGV[1] .. id, "moved", "1")
end
return id
