-- an error() leaves the loop
local tries = 0
while true do
  tries = tries + 1
  if redis.call('SET', KEYS[1], ARGV[1], 'NX') then return tries end
  if tries >= 3 then error('lock busy') end
end
