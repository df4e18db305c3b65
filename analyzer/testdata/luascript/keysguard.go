package luascript

import "github.com/redis/go-redis/v9"

// A requeue in the image of gocraft/work's: the job's queue is built from
// ARGV and the payload, and pushed to only once found among KEYS.
var requeueKnown = redis.NewScript(`
local res = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, 1)
if #res > 0 then
  local j = cjson.decode(res[1])
  redis.call('zrem', KEYS[1], res[1])
  local queue = ARGV[1] .. j['name']
  for _, v in pairs(KEYS) do
    if v == queue then
      redis.call('lpush', queue, res[1])
      return 'ok'
    end
  end
  redis.call('zadd', KEYS[2], ARGV[2], res[1])
  return 'dead'
end
return nil`)

// The same, pushing whether or not the queue was found.
var requeueAnyway = redis.NewScript(`
local res = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, 1)
if #res > 0 then
  local j = cjson.decode(res[1])
  local queue = ARGV[1] .. j['name']
  for _, v in pairs(KEYS) do
    if v == queue then
      break
    end
  end
  redis.call('lpush', queue, res[1])
end
return nil`)

func requeue(rdb *redis.ClusterClient, keys []string, argv []interface{}) {
	requeueKnown.Run(ctx, rdb, keys, argv...)
	requeueAnyway.Run(ctx, rdb, keys, argv...) // want `Lua line 11: LPUSH key ARGV\[1\] \.\. a reply of a command comes from ARGV, not KEYS`
}
