package luascript

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The script takes a lock named after KEYS[1] (lua/derived.lua): on a
// cluster that is safe exactly when the caller's KEYS[1] carries a tag.
//
//go:embed lua/derived.lua
var derivedLua string

var derived = redis.NewScript(derivedLua)

func derivedTagged(rdb *redis.ClusterClient, id, owner string) {
	derived.Run(ctx, rdb, []string{"job:{" + id + "}"}, owner)
}

func derivedUntagged(rdb *redis.ClusterClient, id, owner string) {
	derived.Run(ctx, rdb, []string{"job:" + id}, owner) // want `^script SET key KEYS\[1\] \.\. ":lock" \(lua/derived.lua:3\) is "job:" \+ id \+ ":lock" with this call's KEYS\[1\] = "job:" \+ id: it shares no hash tag with KEYS\[1\] \(cross-slot or non-local key error on a cluster\)$`
}

// Keys built from ARGV: safe when the caller passes the tagged prefix the
// keys share.
const counterSrc = `redis.call('INCR', KEYS[1])
return redis.call('INCR', ARGV[1] .. ':total')`

var counter = redis.NewScript(counterSrc)

func counterCalls(rdb *redis.ClusterClient, id string) {
	prefix := "stats:{" + id + "}"
	counter.Run(ctx, rdb, []string{prefix + ":hits"}, prefix)
	counter.Run(ctx, rdb, []string{"stats:{" + id + "}:hits"}, "stats:"+id) // want `script INCR key ARGV\[1\] \.\. ":total" \(Lua line 2\) is "stats:" \+ id \+ ":total" with this call's ARGV\[1\] = "stats:" \+ id, KEYS\[1\] = "stats:\{" \+ id \+ "\}:hits": it shares no hash tag with KEYS\[1\]`
	counter.Run(ctx, rdb, []string{"stats:{a}:hits"}, "stats:{b}")          // want `is in slot \d+, KEYS\[1\] in slot \d+`
	rdb.Do(ctx, "EVAL", counterSrc, 1, prefix+":hits", prefix)
	rdb.Do(ctx, "EVAL", counterSrc, 1, prefix+":hits", "stats:"+id) // want `with this call's ARGV\[1\] = "stats:" \+ id`
	counter.Run(ctx, rdb, []string{"stats:{a}:hits"}, 42)           // want `^INCR key ARGV\[1\] \.\. ":total" comes from ARGV.*\(Lua line 2\); here KEYS\[1\] is "stats:\{a\}:hits" and the key shares no hash tag with KEYS\[1\]$`
}

// No keys (SL1203 in scriptkeys): keys the script builds are judged as the
// script alone.
func counterNoKeys(rdb *redis.ClusterClient, id string) {
	counter.Run(ctx, rdb, nil, "stats:"+id) // want `^Lua line 2: INCR key ARGV\[1\] \.\. ":total" comes from ARGV`
}

// A caller whose keys cannot be resolved: judged as the script alone.
func derivedUnknown(rdb *redis.ClusterClient, keys []string, owner string) {
	derived.Run(ctx, rdb, keys, owner) // want `^lua/derived.lua:3: SET key KEYS\[1\] \.\. ":lock" is derived from KEYS\[1\]`
}

// Read-only calls report the script's writes at the call.
func readOnly(rdb *redis.ClusterClient, id string) {
	counter.RunRO(ctx, rdb, []string{"stats:{" + id + "}:hits"}, "stats:{"+id+"}") // want `^Lua line 1: .*INCR` `^Lua line 2: .*INCR`
}

// A key passed in whole: its tag is decided elsewhere, so the derived key is
// reported as the script alone would be, saying what is not known.
func derivedParam(rdb *redis.ClusterClient, job, owner string) {
	derived.Run(ctx, rdb, []string{job}, owner) // want `is job \+ ":lock" with this call's KEYS\[1\] = job: it shares the slot of KEYS\[1\] only if job carries a hash tag, which nothing here shows`
}
