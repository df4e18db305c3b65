-- Extending the sandbox's library tables: they are read-only.
function table.extend(dst, src) -- want LUA301
  for _, v in ipairs(src) do dst[#dst + 1] = v end
  return dst
end
string.startswith = function(s, p) return s:sub(1, #p) == p end -- want LUA301
function string:trim() return (self:gsub('^%s+', '')) end -- want LUA301
return 1
