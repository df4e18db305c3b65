package luascript

import "github.com/redis/go-redis/v9"

// A queue script builds task keys inside Lua from a prefix the caller
// passes in ARGV, next to the queue's keys in KEYS (as asynq does).
var dequeue = redis.NewScript(`
local id = redis.call("RPOPLPUSH", KEYS[1], KEYS[2])
if id then
	redis.call("HSET", ARGV[2] .. id, "state", "active")
end
return id`)

func dequeueSpread(rdb *redis.ClusterClient, qname string, lease int64) {
	keys := []string{"q:{" + qname + "}:pending", "q:{" + qname + "}:active"}
	argv := []interface{}{lease, "q:{" + qname + "}:t:"}
	dequeue.Run(ctx, rdb, keys, argv...)
}

func dequeueSpreadAppend(rdb *redis.ClusterClient, qname string, lease int64) {
	keys := []string{"q:{" + qname + "}:pending", "q:{" + qname + "}:active"}
	argv := []any{lease}
	argv = append(argv, "q:"+qname+":t:")
	dequeue.Run(ctx, rdb, keys, argv...) // want `script HSET key ARGV\[2\] \.\. a reply of RPOPLPUSH \(Lua line 4\) is "q:" \+ qname \+ ":t:" \+ .* with this call's ARGV\[2\] = "q:" \+ qname \+ ":t:", KEYS\[1\] = "q:\{" \+ qname \+ "\}:pending": it shares no hash tag with KEYS\[1\]`
}

func dequeueSpreadUntagged(rdb *redis.ClusterClient, qname string, lease int64) {
	keys := []string{"q:{" + qname + "}:pending", "q:{" + qname + "}:active"}
	dequeue.Run(ctx, rdb, keys, []interface{}{lease, "q:" + qname + ":t:"}...) // want `with this call's ARGV\[2\] = "q:" \+ qname \+ ":t:", KEYS\[1\] = .*: it shares no hash tag with KEYS\[1\]`
}

// A slice whose elements are not all in sight: judged as the script alone.
func dequeueSpreadUnknown(rdb *redis.ClusterClient, qname string, extra []interface{}) {
	keys := []string{"q:{" + qname + "}:pending", "q:{" + qname + "}:active"}
	argv := append([]interface{}{1}, extra...)
	dequeue.Run(ctx, rdb, keys, argv...) // want `HSET key ARGV\[2\] \.\. a reply of RPOPLPUSH comes from ARGV, not KEYS`
}
