-- pattern: a Redis client library written in Lua for another host (in the
-- image of OpenResty's lua-resty-redis): it opens sockets with ngx and
-- loads modules with require, and never calls redis.call. Pointed at it,
-- the checker says once that it is not a Redis script.
local sub = string.sub
local tcp = ngx.socket.tcp -- want LUA001
local null = ngx.null
local ok, new_tab = pcall(require, "table.new")
if not ok then
  new_tab = function(narr, nrec) return {} end
end
local _M = new_tab(0, 8)
_M._VERSION = '0.1'
function _M.new(self)
  local sock, err = tcp()
  if not sock then
    return nil, err
  end
  return setmetatable({ _sock = sock }, { __index = _M })
end
function _M.get(self, key)
  local reply = self:_send("GET", key)
  if reply == null then
    return nil
  end
  return sub(reply, 1)
end
return _M
