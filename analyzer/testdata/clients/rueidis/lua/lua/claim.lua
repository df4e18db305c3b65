local id = redis.call("LPOP", KEYS[1])
if id then
  redis.call("HSET", ARGV[1] .. id, "owner", ARGV[2])
end
return id
