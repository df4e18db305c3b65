-- outside a vararg function "arg" is a missing global
local function first(x)
  return arg[1] -- want LUA302
end
return first(1)
