#!lua
-- max_update: raise a numeric value to max(current, new) and, only when it
-- rose, mark it dirty for write-back.
--
-- KEYS[1]  the value (a string holding a decimal integer)
-- KEYS[2]  the dirty set of the value's shard (same hash tag as KEYS[1])
-- ARGV[1]  the new value, a decimal integer
-- ARGV[2]  the member to add to the dirty set
--
-- Reply: 1 when the value rose (and was marked), 0 when it did not.
-- Integers are compared as decimal strings, so values beyond 2^53 keep
-- their exact order (Lua numbers are doubles).

-- canonical returns the sign and the digits without leading zeros of a
-- decimal integer, or nil when s is not one.
local function canonical(s)
  local sign, digits = string.match(s, '^(%-?)0*(%d+)$')
  if not digits then
    return nil
  end
  if digits == '0' then
    sign = ''
  end
  return sign, digits
end

-- compare returns -1, 0 or 1 as a is less than, equal to or greater than b.
local function compare(aSign, aDigits, bSign, bDigits)
  if aSign ~= bSign then
    if aSign == '-' then
      return -1
    end
    return 1
  end
  local r = 0
  if #aDigits ~= #bDigits then
    r = (#aDigits < #bDigits) and -1 or 1
  elseif aDigits ~= bDigits then
    r = (aDigits < bDigits) and -1 or 1
  end
  if aSign == '-' then
    r = -r
  end
  return r
end

local newSign, newDigits = canonical(ARGV[1])
if not newSign then
  return redis.error_reply('INVALID new value is not an integer')
end
-- GET fails on a key that is not a string, before anything is written.
local cur = redis.pcall('GET', KEYS[1])
if type(cur) == 'table' and cur['err'] then
  if string.find(cur['err'], '^WRONGTYPE') then
    return redis.error_reply('WRONGTYPE value key holds a ' .. redis.call('TYPE', KEYS[1])['ok'])
  end
  return cur
end
if cur then
  local curSign, curDigits = canonical(cur)
  if not curSign then
    return redis.error_reply('WRONGTYPE value key does not hold an integer')
  end
  if compare(newSign, newDigits, curSign, curDigits) <= 0 then
    return 0
  end
end
-- The dirty set is written only when the value rose, so its type is
-- checked only then, before the first write.
local dirtyType = redis.call('TYPE', KEYS[2])['ok']
if dirtyType ~= 'none' and dirtyType ~= 'set' then
  return redis.error_reply('WRONGTYPE dirty set key holds a ' .. dirtyType)
end
redis.call('SET', KEYS[1], newSign .. newDigits, 'KEEPTTL')
redis.call('SADD', KEYS[2], ARGV[2])
return 1
