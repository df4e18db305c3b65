-- A loop over a whole reply that stops after a fixed number of passes
-- (its own index against a constant) is bounded by that cap; the read
-- itself is LUA103, shown in LUA103's cases.
-- slotlint:ignore LUA103 the set holds a few hundred members by design
local members = redis.call('SMEMBERS', KEYS[1])
for i, m in ipairs(members) do
  if i > 100 then
    break
  end
  redis.call('SREM', KEYS[1], m)
end
return #members
