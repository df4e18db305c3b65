-- Not a helper file: its top level reads the server before any function
-- runs, so the names it reads must be defined here (a script missing its
-- rcall alias fails at the first call)
local now = rcall("TIME") -- want LUA302
local function stamp(key)
  rcall("SET", key, now[1])
end
stamp(KEYS[1])
