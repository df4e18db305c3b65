-- Trimming finished jobs in the image of a group queue: the ids read
-- whole are made into keys under the namespace in KEYS[1] and deleted
-- with one DEL, which fails past 8,000 keys (LUA104). The read is the
-- cost; the keys are the namespace's, not stored keys, so the DEL is no
-- LUA201.
local ns = KEYS[1]
local oldIds = redis.call('ZRANGE', ns .. ':completed', 0, -1) -- want LUA103 LUA202
local keysToDelete = {}
for i = 1, #oldIds do
  table.insert(keysToDelete, ns .. ':job:' .. oldIds[i])
end
if #keysToDelete > 0 then
  redis.call('DEL', unpack(keysToDelete)) -- want LUA104
end
return #oldIds
