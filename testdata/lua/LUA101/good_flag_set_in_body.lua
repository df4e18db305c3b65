-- Loops that end through a flag the body sets, in the image of a split
-- helper that walks a stored list of ids separated by ";": the first test
-- sees the flag from before the loop, later ones what the body set.
local more = true
while more do
  more = false
end

local n, again = 0, true
while again do
  n = n + 1
  if n > 10 then
    again = false
  end
end

local ids, from, going = {}, 1, true
local text = ARGV[1]
while going do
  local at = string.find(text, ';', from, true)
  if at then
    ids[#ids + 1] = string.sub(text, from, at - 1)
    from = at + 1
  else
    ids[#ids + 1] = string.sub(text, from)
    going = false
  end
end
return {n, #ids}
