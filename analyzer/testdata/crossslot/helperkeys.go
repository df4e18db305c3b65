package crossslot

import "github.com/redis/go-redis/v9"

// Keys a helper is given whole are judged with what each of its callers
// passes: the helper is as right as its callers.

func mget2(rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, a, b) // want `^MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots; called at helperkeys.go:\d+ with a = "user:1"$`
}

func mget2Callers(rdb *redis.ClusterClient, id string) {
	mget2(rdb, "{u:"+id+"}:a", "{u:"+id+"}:b") // one tag: fine
	mget2(rdb, "user:1", "user:2")
}

// Every caller tags its keys: nothing to report.
func delPair(rdb *redis.ClusterClient, a, b string) {
	rdb.Del(ctx, a, b)
}

func delPairCallers(rdb *redis.ClusterClient, id string) {
	delPair(rdb, "{order:"+id+"}:lines", "{order:"+id+"}:total")
	delPair(rdb, "{cart}:a", "{cart}:b")
}

// A caller whose keys share no tag: SL1002, naming the caller.
func renameKey(rdb *redis.ClusterClient, from, to string) {
	rdb.Rename(ctx, from, to) // want `^RENAME keys "user:" \+ id and "archive:" \+ id share no hash tag \(CROSSSLOT risk on a cluster\); called at helperkeys.go:\d+ with from = "user:" \+ id$`
}

func renameCallers(rdb *redis.ClusterClient, id string) {
	renameKey(rdb, "user:"+id, "archive:"+id)
}

// A range over keys in sight is judged for each element.
func touchWith(rdb *redis.ClusterClient, key, anchor string) {
	rdb.Touch(ctx, key, anchor) // want `^TOUCH keys "stats" \(slot \d+\) and "{s}:anchor" \(slot \d+\) are in different slots; called at helperkeys.go:\d+ with key = k$`
}

func touchCallers(rdb *redis.ClusterClient) {
	for _, k := range []string{"{s}:a", "stats"} {
		touchWith(rdb, k, "{s}:anchor")
	}
}

// A caller that passes keys it is given whole in turn: its own callers
// decide, which this does not follow, so the keys stay unresolved
// (SL1005, with -strict only).
func mgetInner(rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, a, b)
}

func mgetOuter(rdb *redis.ClusterClient, a, b string) {
	mgetInner(rdb, a, b)
}

func mgetOuterCaller(rdb *redis.ClusterClient) {
	mgetOuter(rdb, "user:1", "user:2")
}

// Exported: its callers are not all in sight.
func MGetPair(rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, a, b)
}

// Used as a value: its callers are not all in sight either.
func mgetByValue(rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, a, b)
}

var mgetFunc = mgetByValue

func mgetByValueCaller(rdb *redis.ClusterClient) {
	mgetFunc(rdb, "user:1", "user:2")
}
