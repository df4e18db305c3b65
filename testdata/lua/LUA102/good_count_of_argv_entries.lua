-- A cleanup in the image of a job queue's orphan sweep: ARGV[1] says how
-- many key suffixes follow it, and each pass builds a key from the next
-- one. Past the last argument ARGV[1 + i] is nil and ".." raises an
-- error, so the loop runs at most once per argument the request carries,
-- whatever ARGV[1] says: the request's own size, like a loop to #ARGV.
-- The queue's keys carry its hash tag.
-- slotlint:keys-tagged
local prefix = KEYS[1]
local count = tonumber(ARGV[1])
local types = {}
for i = 1, count do
  local key = prefix .. ARGV[1 + i]
  types[i] = redis.call('TYPE', key)['ok']
end
-- the same with the offset in a local the loop does not change
local first = count + 2
for i = 0, tonumber(ARGV[first]) - 1 do
  redis.call('SADD', prefix .. 'seen', ARGV[first + 1 + i] .. ':state')
end
return types
