for i = 1, tonumber(ARGV[1]) do
  if i > 100 then break end
  redis.call('RPOP', KEYS[1])
end
return 1
