-- Lua 5.1 gives every vararg function a local "arg" table
local function count(...)
  return arg.n
end
return count(KEYS[1], ARGV[1])
