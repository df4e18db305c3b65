-- a watchdog lists the heartbeat keys with KEYS (or SCAN), then reads
-- each: a key the script has just listed exists (a script runs alone, and
-- keys do not expire while it runs), so GET gives its text, never false
-- (Jesque's watchdog); a key built from a listed one may be missing, and
-- stays reported (bad_listed_key_built.lua)
local now = tonumber(ARGV[1])
local stale = {}
for _, key in ipairs(redis.call('KEYS', 'hb:*')) do -- slotlint:ignore LUA401 LUA102 a maintenance script run on one node over its few heartbeat keys
  if now - redis.call('GET', key) > 60000 then -- slotlint:ignore LUA201 keys found by KEYS on this node
    stale[#stale + 1] = key
  end
end
local fresh = 0
local cursor = '0'
repeat -- slotlint:ignore LUA103 the same few heartbeat keys, one page at a time
  local page = redis.call('SCAN', cursor, 'MATCH', 'hb:*', 'COUNT', 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    if now - redis.call('GET', key) <= 60000 then -- slotlint:ignore LUA201 keys found by SCAN on this node
      fresh = fresh + 1
    end
  end
until cursor == '0'
return {stale, fresh}
