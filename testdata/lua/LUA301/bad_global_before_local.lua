-- A helper defined before the local it means: inside it the name is
-- still a global, so the assignment creates one.
local function bump()
  hits = 1 -- want LUA301
end
local hits = 0
bump()
total = 5 -- want LUA301
local total = 6
return hits + total
