-- wait for the replica link inside a script: nothing can change the link
-- state while the script runs, so this either ends at once or never
while true do -- want LUA101
  local info = redis.call('INFO', 'replication') -- want LUA401
  if string.find(info, 'master_link_status:up', 1, true) then
    break
  end
end
return 1
