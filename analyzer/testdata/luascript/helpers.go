package luascript

import "github.com/redis/go-redis/v9"

// A queue's keys all carry {qname}; the task keys are built inside Lua
// from a prefix passed in ARGV.
func pendingKey(qname string) string   { return "q:{" + qname + "}:pending" }
func scheduledKey(qname string) string { return "q:{" + qname + "}:scheduled" }
func taskPrefix(qname string) string   { return "q:{" + qname + "}:t:" }
func plainPending(qname string) string { return "q:" + qname + ":pending" }

var touchAll = redis.NewScript(`
for _, id in ipairs(redis.call("ZRANGE", KEYS[1], 0, 99)) do
	redis.call("HSET", ARGV[1] .. id, "touched", "1")
end
return 1`)

// A helper runs the script for a key its callers build: every caller
// passes a key of the queue's tag.
func touch(rdb *redis.ClusterClient, key, qname string) {
	touchAll.Run(ctx, rdb, []string{key}, taskPrefix(qname))
}

func touchScheduled(rdb *redis.ClusterClient, qname string) { touch(rdb, scheduledKey(qname), qname) }
func touchPending(rdb *redis.ClusterClient, qname string)   { touch(rdb, pendingKey(qname), qname) }

// One caller passes a key without the tag.
func touchMixed(rdb *redis.ClusterClient, key, qname string) {
	touchAll.Run(ctx, rdb, []string{key}, taskPrefix(qname)) // want `script HSET key ARGV\[1\] \.\. a reply of ZRANGE \(Lua line 3\) is "q:\{" \+ qname \+ "\}:t:" \+ .* it shares the slot of KEYS\[1\] only if key carries a hash tag, which nothing here shows; called at helpers.go:34 with key = plainPending\(qname\)`
}

func touchBoth(rdb *redis.ClusterClient, qname string) {
	touchMixed(rdb, scheduledKey(qname), qname)
	touchMixed(rdb, plainPending(qname), qname)
}

// Callers that pass one queue's key and another queue's prefix.
func touchCrossed(rdb *redis.ClusterClient, key, qname string) {
	touchAll.Run(ctx, rdb, []string{key}, taskPrefix(qname)) // want `called at helpers.go:43 with key = scheduledKey\(other\)`
}

func touchOther(rdb *redis.ClusterClient, qname, other string) {
	touchCrossed(rdb, scheduledKey(other), qname)
}

// A caller ranging over a list of the queue's keys.
func touchEach(rdb *redis.ClusterClient, key, prefix string) {
	touchAll.Run(ctx, rdb, []string{key}, prefix)
}

func touchQueue(rdb *redis.ClusterClient, qname string) {
	keys := []string{scheduledKey(qname), pendingKey(qname)}
	prefix := taskPrefix(qname)
	for _, k := range keys {
		touchEach(rdb, k, prefix)
	}
}

// An exported helper: its callers are not all in sight.
func TouchExported(rdb *redis.ClusterClient, key, qname string) {
	touchAll.Run(ctx, rdb, []string{key}, taskPrefix(qname)) // want `it shares the slot of KEYS\[1\] only if key carries a hash tag, which nothing here shows \(cross-slot`
}

// A helper also used as a value: it may be called from anywhere.
func touchValue(rdb *redis.ClusterClient, key, qname string) {
	touchAll.Run(ctx, rdb, []string{key}, taskPrefix(qname)) // want `it shares the slot of KEYS\[1\] only if key carries a hash tag, which nothing here shows \(cross-slot`
}

var touchers = []func(*redis.ClusterClient, string, string){touchValue}

// A helper nobody calls.
func touchUnused(rdb *redis.ClusterClient, key, qname string) {
	touchAll.Run(ctx, rdb, []string{key}, taskPrefix(qname)) // want `it shares the slot of KEYS\[1\] only if key carries a hash tag, which nothing here shows \(cross-slot`
}

// A helper that runs whatever script it is given: each of its calls is a
// call of that script with the caller's keys and arguments.
type rdbQueue struct{ c *redis.ClusterClient }

func (r *rdbQueue) runScript(script *redis.Script, keys []string, args ...interface{}) error {
	return script.Run(ctx, r.c, keys, args...).Err()
}

var dropSet = redis.NewScript(`
for _, id in ipairs(redis.call("ZRANGE", KEYS[1], 0, 99)) do
	redis.call("DEL", ARGV[1] .. id)
end
return redis.call("DEL", KEYS[1])`)

func (r *rdbQueue) drop(qname string) error {
	return r.runScript(dropSet, []string{scheduledKey(qname)}, taskPrefix(qname))
}

func (r *rdbQueue) dropUntagged(qname string) error {
	return r.runScript(dropSet, []string{scheduledKey(qname)}, "q:"+qname+":t:") // want `script DEL key ARGV\[1\] \.\. a reply of ZRANGE \(Lua line 3\) is "q:" \+ qname \+ ":t:" \+ .* with this call's ARGV\[1\] = "q:" \+ qname \+ ":t:", KEYS\[1\] = scheduledKey\(qname\): it shares no hash tag with KEYS\[1\]`
}

func (r *rdbQueue) dropSpread(qname string) error {
	argv := []interface{}{taskPrefix(qname)}
	return r.runScript(dropSet, []string{scheduledKey(qname)}, argv...)
}

func (r *rdbQueue) dropTooFew(qname string) error {
	return r.runScript(dropSet, nil, taskPrefix(qname)) // want `^Lua line 3: DEL key ARGV\[1\] \.\. a reply of ZRANGE comes from ARGV, not KEYS`
}

// A variable given one of two scripts: the call is judged for each.
var dropList = redis.NewScript(`
for _, id in ipairs(redis.call("LRANGE", KEYS[1], 0, 99)) do
	redis.call("DEL", ARGV[1] .. id)
end
return redis.call("DEL", KEYS[1])`)

var dropListAll = redis.NewScript(`
for _, id in ipairs(redis.call("LRANGE", KEYS[1], 0, 99)) do
	redis.call("DEL", ARGV[1] .. id)
end
redis.call("DEL", KEYS[2])
return redis.call("DEL", KEYS[1])`)

func (r *rdbQueue) dropEither(qname string, all bool) {
	var script *redis.Script
	if all {
		script = dropListAll
	} else {
		script = dropList
	}
	keys := []string{pendingKey(qname), scheduledKey(qname)}
	script.Run(ctx, r.c, keys, taskPrefix(qname)) // want `Script.Run passes 2 keys but the script never reads KEYS\[2\]`
	// The same finding in both scripts is reported once.
	script.Run(ctx, r.c, keys, "q:"+qname+":t:") // want `Script.Run passes 2 keys but the script never reads KEYS\[2\]` `ARGV\[1\] = "q:" \+ qname \+ ":t:", KEYS\[1\] = pendingKey\(qname\): it shares no hash tag`
}

var dropWithLock = redis.NewScript(`
redis.call("DEL", KEYS[2])
return redis.call("DEL", KEYS[1])`)

// A key appended in a branch that returns is not among the keys of a call
// after that branch.
func (r *rdbQueue) done(qname, lock string) error {
	keys := []string{scheduledKey(qname)}
	if lock != "" {
		keys = append(keys, "lock:{"+qname+"}:"+lock)
		return r.runScript(dropWithLock, keys, taskPrefix(qname))
	}
	return r.runScript(dropSet, keys, taskPrefix(qname))
}

func (r *rdbQueue) doneFallThrough(qname, lock string) error {
	keys := []string{scheduledKey(qname)}
	if lock != "" {
		keys = append(keys, "lock:{"+qname+"}:"+lock)
	}
	return r.runScript(dropSet, keys, taskPrefix(qname)) // want `Script.Run passes 2 keys but the script never reads KEYS\[2\]`
}

// A local key given one of several values: each is judged.
func (r *rdbQueue) touchState(qname string, scheduled bool) {
	var key string
	if scheduled {
		key = scheduledKey(qname)
	} else {
		key = pendingKey(qname)
	}
	touchAll.Run(ctx, r.c, []string{key}, taskPrefix(qname))
}

func (r *rdbQueue) touchStateMixed(qname string, scheduled bool) {
	key := scheduledKey(qname)
	if !scheduled {
		key = plainPending(qname)
	}
	touchAll.Run(ctx, r.c, []string{key}, taskPrefix(qname)) // want `KEYS\[1\] = key: it shares the slot of KEYS\[1\] only if key carries a hash tag`
}
