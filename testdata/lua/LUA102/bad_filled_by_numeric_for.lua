-- Fan-out in the image of a pub/sub relay: a helper collects, once each,
-- the nodes of the subscribers it reads whole, and a second loop writes
-- to every node it found: the writes grow with the subscribers.
local targets = {}
local nodeOrder = {}
local function addSubscribers(pattern)
  local members = redis.call('ZRANGEBYLEX', KEYS[1], '[' .. pattern .. '|', '(' .. pattern .. '}') -- want LUA103
  for j = 1, #members do
    local nodeId = members[j]
    if not targets[nodeId] then
      targets[nodeId] = true
      nodeOrder[#nodeOrder + 1] = nodeId
    end
  end
end
addSubscribers(ARGV[1])
for i = 1, #nodeOrder do -- want LUA102
  redis.call('XADD', KEYS[2], '*', 'node', nodeOrder[i], 'm', ARGV[2])
end
return #nodeOrder
