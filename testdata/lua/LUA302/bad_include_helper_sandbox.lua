-- A helper file that only defines functions still cannot use what Redis's
-- sandbox removes: no including script can provide os or print.
local function stamp(jobKey)
  rcall("HSET", jobKey, "processedOn", os.time()) -- want LUA302
end

local function trace(msg)
  print(msg) -- want LUA302
end
