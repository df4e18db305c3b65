package lockcheck

import (
	"time"

	"github.com/redis/go-redis/v9"
)

// The classic: take the lock with a TTL, release it with a bare DEL.
func bareDel(rdb *redis.Client, id, token string) {
	key := "order:{" + id + "}:lock"
	if !rdb.SetNX(ctx, key, token, 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `lock key "order:\{" \+ id \+ "\}:lock" released by DEL without an owner check: if the lock expired and another client took it, this deletes their lock; release with runtime's Lock.Release \(from Client.Obtain\) or a script that deletes only while the value is still this owner's token`
	work()
}

// The release in a deferred closure.
func deferredClosure(rdb *redis.Client, id string) {
	key := "order:{" + id + "}:lock"
	if !rdb.SetNX(ctx, key, "me", time.Minute).Val() {
		return
	}
	defer func() {
		rdb.Del(ctx, key) // want `lock key "order:\{" \+ id \+ "\}:lock" released by DEL without an owner check`
	}()
	work()
}

// GET, compare in Go, DEL: the lock can change hands in between.
func getCompareDel(rdb *redis.Client, id, token string) {
	key := "order:{" + id + "}:lock"
	if v, _ := rdb.Get(ctx, key).Result(); v == token {
		rdb.Del(ctx, key) // want `lock key "order:\{" \+ id \+ "\}:lock" released by GET, compare, DEL: the lock can expire and pass to another client between the GET and the DEL, which then deletes their lock; release with runtime's Lock.Release \(from Client.Obtain\) or a script that compares the token and deletes in one step`
	}
}

// The same with an early return.
func getCompareReturn(rdb *redis.Client, id, token string) error {
	key := "order:{" + id + "}:lock"
	owner, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if owner != token {
		return nil
	}
	return rdb.Unlink(ctx, key).Err() // want `lock key "order:\{" \+ id \+ "\}:lock" released by GET, compare, UNLINK`
}

// The owner read in a helper.
func owner(rdb *redis.Client, key string) string { return rdb.Get(ctx, key).Val() }

func releaseIfMine(rdb *redis.Client, id, token string) {
	key := "order:{" + id + "}:lock"
	if owner(rdb, key) == token {
		rdb.Del(ctx, key) // want `lock key "order:\{" \+ id \+ "\}:lock" released by GET, compare, DEL`
	}
}

// Inside MULTI/EXEC without WATCH the DEL is still unchecked.
func multiDel(rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Unlink(ctx, "order:{"+id+"}:lock") // want `lock key "order:\{" \+ id \+ "\}:lock" released by UNLINK without an owner check`
		return nil
	})
}

// A release helper: the key family is a lock family of the package.
func unlock(rdb *redis.Client, id string) {
	rdb.Del(ctx, "order:{"+id+"}:lock") // want `lock key "order:\{" \+ id \+ "\}:lock" released by DEL without an owner check`
}

// Reported once, inside unlock, not again at each call.
func callsUnlock(rdb *redis.Client, id string) { unlock(rdb, id) }

// A helper that deletes whatever key it is given: reported where it is
// given a lock key.
func remove(rdb *redis.Client, key string) { rdb.Del(ctx, key) }

func viaRemove(rdb *redis.Client, id string) {
	rdb.SetArgs(ctx, "cart:{"+id+"}:lock", "me", redis.SetArgs{Mode: "NX", TTL: time.Second})
	remove(rdb, "cart:{"+id+"}:lock") // want `lock key "cart:\{" \+ id \+ "\}:lock" released by DEL \(in remove\) without an owner check`
	remove(rdb, "cart:{"+id+"}:items")
}

var release = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Silent: the token check and the DEL are one script.
func scriptRelease(rdb *redis.Client, id, token string) {
	key := "order:{" + id + "}:lock"
	if rdb.SetNX(ctx, key, token, 10*time.Second).Val() {
		defer release.Run(ctx, rdb, []string{key}, token)
		work()
	}
}

// Silent: WATCH makes GET, compare, DEL a compare-and-delete.
func watchRelease(rdb *redis.Client, id, token string) error {
	key := "order:{" + id + "}:lock"
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}

// Silent: keys that are never set with NX, and a record created if absent
// (NX, no expiry) then deleted.
func notLocks(rdb *redis.Client, id string) {
	if rdb.SetNX(ctx, "profile:{"+id+"}", "{}", 0).Val() {
		rdb.Del(ctx, "profile:{"+id+"}")
	}
	rdb.Set(ctx, "session:"+id, 1, time.Hour)
	rdb.Del(ctx, "session:"+id)
	rdb.Del(ctx, "order:{"+id+"}:items")
}

func work() {}
