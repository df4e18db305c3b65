package crossslot

import (
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/runtime"
)

// The runtime's operations take keys as a client's methods do: a lock
// key needs a hash tag of its own (its wake-up list is key + ":wake"), and
// the keys of one operation share a slot.
func runtimeLocks(locks *runtime.Client, id string, n int, key string) {
	locks.Obtain(ctx, "plainlock", time.Second, nil)                               // want `Obtain key "plainlock" \(slot 7983\) has no hash tag, so its wake-up list "plainlock:wake" \(slot 12075\) is in another slot: Obtain fails with ErrCrossSlot`
	locks.Obtain(ctx, "order:"+id+":lock", time.Second, nil)                       // want `Obtain key "order:" \+ id \+ ":lock" has no hash tag, so its wake-up list "order:" \+ id \+ ":lock:wake" is not in its slot: Obtain fails with ErrCrossSlot`
	locks.Obtain(ctx, fmt.Sprintf("lock:%d", n), time.Second, nil)                 // want `Obtain key "lock:" \+ n has no hash tag`
	locks.Obtain(ctx, runtime.Key("order", id, "lock"), time.Second, nil)          // tagged by Key
	locks.Obtain(ctx, "order:{"+id+"}:lock", time.Second, nil)                     // tagged by hand
	locks.Obtain(ctx, "{jobs}", time.Second, &runtime.ObtainOptions{NoWait: true}) // one lock, its own tag
	k := runtime.Key("order", id, "lock")
	locks.Obtain(ctx, k, time.Second, nil)               // through a local
	locks.Obtain(ctx, key, time.Second, nil)             // passed in whole: its builder's design
	locks.Obtain(ctx, "order:{}:lock", time.Second, nil) // an empty tag: hashtag's SL1102
}

func runtimeState(locks *runtime.Client, id string) {
	lock := runtime.Key("order", id, "lock")
	locks.LockAndSet(ctx, lock, time.Second, runtime.StateWrite{Key: runtime.Key("order", id, "state"), Field: "f", Value: "v", TTL: time.Minute}, nil)
	locks.LockAndSet(ctx, lock, time.Second, runtime.StateWrite{Key: runtime.Key("cart", id, "state"), Field: "f", Value: "v", TTL: time.Minute}, nil)
	locks.LockAndSet(ctx, lock, time.Second, runtime.StateWrite{Key: "state:" + id, Field: "f", Value: "v", TTL: time.Minute}, nil) // want `LockAndSet keys "order:\{" \+ id \+ "\}:lock" and "state:" \+ id share no hash tag`
	locks.LockAndSet(ctx, "lock:1", time.Second, runtime.StateWrite{Key: "state:1", Field: "f", Value: "v", TTL: time.Minute}, nil) // want `LockAndSet key "lock:1" \(slot 3430\) has no hash tag, so its wake-up list "lock:1:wake" \(slot 4297\) is in another slot` `LockAndSet keys "lock:1" \(slot 3430\) and "state:1" \(slot 6240\) are in different slots`
}

func runtimeCounters(c *runtime.Client, id string) {
	c.MaxUpdate(ctx, "lastread:1", "dirty", "1", 5)                                                // want `MaxUpdate keys "lastread:1" \(slot 4615\) and "dirty" \(slot 10036\) are in different slots`
	c.MaxUpdate(ctx, "lastread:"+id, "dirty:"+id, id, 5)                                           // want `MaxUpdate keys "lastread:" \+ id and "dirty:" \+ id share no hash tag`
	c.MaxUpdate(ctx, runtime.Key("item", id, "lastread"), runtime.Key("item", id, "dirty"), id, 5) // shared tag
	c.DecrementIfAvailable(ctx, "stock:{"+id+"}", 1)
	c.IssueOnce(ctx, "pool:{"+id+"}", "u", 10)
}

// A lock's fencing counter is in its key's slot (its tag is chosen so),
// and its wake-up list is when the key has a tag.
func runtimeDerived(rdb *redis.Client, id string) {
	k := runtime.Key("order", id, "lock")
	rdb.Del(ctx, k, runtime.FencingKey(k), runtime.WakeKey(k))
	rdb.MGet(ctx, "plainlock", runtime.FencingKey("plainlock"))
	plain := "lock:" + id
	rdb.Del(ctx, plain, runtime.FencingKey(plain))
	rdb.Del(ctx, plain, runtime.WakeKey(plain)) // want `DEL keys "lock:" \+ id and "lock:" \+ id \+ ":wake" share no hash tag`
}
