package lockcheck

import (
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// The lastRead race: read the maximum, compare in Go, write it back.
func lastRead(rdb *redis.Client, item string, pos int64) error {
	key := "item:{" + item + "}:lastRead"
	cur, err := rdb.Get(ctx, key).Int64()
	if err != nil && err != redis.Nil {
		return err
	}
	if pos > cur {
		return rdb.Set(ctx, key, pos, 0).Err() // want `SET of "item:\{" \+ item \+ "\}:lastRead" depends on the GET before it with no WATCH or script: two clients interleaved as A GET, B GET, A SET, B SET lose A's update; use runtime's Client.MaxUpdate for a running maximum, or a script, or WATCH with TxPipelined`
	}
	return nil
}

// The same with an early return.
func lastReadReturn(rdb *redis.Client, item string, pos int64) {
	key := "item:{" + item + "}:lastRead"
	s := rdb.Get(ctx, key).Val()
	cur, _ := strconv.ParseInt(s, 10, 64)
	if cur >= pos {
		return
	}
	rdb.Set(ctx, key, pos, 0) // want `SET of "item:\{" \+ item \+ "\}:lastRead" depends on the GET before it`
}

// INCR emulated with GET and SET.
func incr(rdb *redis.Client, page string) {
	n, _ := rdb.Get(ctx, "hits:"+page).Int()
	rdb.Set(ctx, "hits:"+page, n+1, 0) // want `SET of "hits:" \+ page depends on the GET before it with no WATCH or script: two clients interleaved as A GET, B GET, A SET, B SET lose A's update; use INCRBY, or a script, or WATCH with TxPipelined`
}

// The same on a hash field.
func hincr(rdb *redis.Client, user string) {
	key := "user:{" + user + "}"
	v, _ := rdb.HGet(ctx, key, "visits").Int()
	next := v + 1
	rdb.HSet(ctx, key, "visits", next) // want `HSET of "user:\{" \+ user \+ "\}" field "visits" depends on the HGET before it with no WATCH or script: two clients interleaved as A HGET, B HGET, A HSET, B HSET lose A's update; use HINCRBY, or a script, or WATCH with TxPipelined`
}

// A command variable, an append emulated in Go, a loop.
func appendLog(rdb *redis.Client, id string, lines []string) {
	for _, line := range lines {
		cmd := rdb.Get(ctx, "log:"+id)
		if cmd.Err() == redis.Nil {
			rdb.Set(ctx, "log:"+id, line, 0)
			continue
		}
		rdb.SetEx(ctx, "log:"+id, cmd.Val()+"\n"+line, time.Hour) // want `SETEX of "log:" \+ id depends on the GET before it with no WATCH or script: two clients interleaved as A GET, B GET, A SETEX, B SETEX lose A's update; use a script, or WATCH with TxPipelined`
	}
}

// A write helper: its key is bound at the call site.
func store(rdb *redis.Client, key string, v int64) { rdb.Set(ctx, key, v, 0) }

func viaStore(rdb *redis.Client, id string, v int64) {
	old, _ := rdb.Get(ctx, "max:"+id).Int64()
	if v > old {
		store(rdb, "max:"+id, v) // want `SET \(in store\) of "max:" \+ id depends on the GET before it`
	}
}

// A read helper that returns the value read.
func loadMax(rdb *redis.Client, id string) int64 {
	v, _ := rdb.Get(ctx, "max:"+id).Int64()
	return v
}

func viaLoad(rdb *redis.Client, id string, v int64) {
	if v > loadMax(rdb, id) {
		store(rdb, "max:"+id, v) // want `SET \(in store\) of "max:" \+ id depends on the GET \(in loadMax\) before it`
	}
}

func incrVia(rdb *redis.Client, id string) {
	store(rdb, "max:"+id, loadMax(rdb, id)+1) // want `SET \(in store\) of "max:" \+ id depends on the GET \(in loadMax\) before it .*; use INCRBY`
}

// Silent: a read helper that returns something else than the value.
func exists(rdb *redis.Client, id string) bool {
	return rdb.Get(ctx, "max:"+id).Err() == nil
}

func viaExists(rdb *redis.Client, id string, v int64) {
	if !exists(rdb, id) {
		store(rdb, "max:"+id, v)
	}
}

// Silent: WATCH + TxPipelined, the optimistic CAS loop.
func casIncr(rdb *redis.Client, key string) error {
	for range 10 {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			n, err := tx.Get(ctx, key).Int()
			if err != nil && err != redis.Nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, key, n+1, 0)
				return nil
			})
			return err
		}, key)
		if err != redis.TxFailedErr {
			return err
		}
	}
	return redis.TxFailedErr
}

// Silent: the same CAS loop with the callback held in a variable, as
// go-redis's own Watch example writes it: a *redis.Tx exists only inside
// Watch, whose EXEC fails when a watched key changed.
func casIncrNamed(rdb *redis.Client, key string) error {
	txf := func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, key).Int()
		if err != nil && err != redis.Nil {
			return err
		}
		n++
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, key, n, 0)
			return nil
		})
		return err
	}
	for range 10 {
		err := rdb.Watch(ctx, txf, key)
		if err != redis.TxFailedErr {
			return err
		}
	}
	return redis.TxFailedErr
}

var maxScript = redis.NewScript(`
local cur = tonumber(redis.call("GET", KEYS[1]) or "0")
if tonumber(ARGV[1]) > cur then redis.call("SET", KEYS[1], ARGV[1]) end
return 0`)

// Silent: a script, and atomic commands.
func atomic(rdb *redis.Client, key string, v int64) {
	maxScript.Run(ctx, rdb, []string{key}, v)
	rdb.Incr(ctx, key)
	rdb.HIncrBy(ctx, key, "n", 1)
}

// Silent: the write does not depend on the value read.
func independent(rdb *redis.Client, id string, v string) {
	if rdb.Get(ctx, "seen:"+id).Err() == redis.Nil {
		rdb.Set(ctx, "first:"+id, v, 0)
	}
	old := rdb.Get(ctx, "cfg:"+id).Val()
	rdb.Set(ctx, "cfg:"+id, v, 0)
	rdb.Set(ctx, "prev:"+id, old, 0)
}

// Silent: cache-aside writes a value computed anew, not the one read.
func cacheAside(rdb *redis.Client, id string) string {
	v, err := rdb.Get(ctx, "page:"+id).Result()
	if err == redis.Nil {
		v = render(id)
		rdb.Set(ctx, "page:"+id, v, time.Minute)
	}
	return v
}

func render(id string) string { return id }

// Silent: fills of a missing value, told apart by its zero value.
func fillEmpty(rdb *redis.Client, id string) {
	if v := rdb.Get(ctx, "page:"+id).Val(); v == "" {
		rdb.Set(ctx, "page:"+id, render(id), time.Minute)
	}
	n, _ := rdb.Get(ctx, "quota:"+id).Int()
	if n == 0 {
		rdb.Set(ctx, "quota:"+id, 100, 0)
	}
}

// Reported: a default for a missing value leaves the value read in the
// variable whenever there was one (a stored version raised only when the
// running one is higher).
func raiseVersion(rdb *redis.Client, cur int) {
	v, _ := rdb.Get(ctx, "version").Result()
	if v == "" {
		v = "0"
	}
	stored, _ := strconv.Atoi(v)
	if cur > stored {
		rdb.Set(ctx, "version", cur, 0) // want `SET of "version" depends on the GET before it`
	}
}

// Silent: a constant that replaces the value read whatever it was.
func overwritten(rdb *redis.Client, cur int) {
	v, _ := rdb.Get(ctx, "version").Result()
	v = "0"
	stored, _ := strconv.Atoi(v)
	if cur > stored {
		rdb.Set(ctx, "version", cur, 0)
	}
}

// Reported: the value read is compared with something else than zero.
func fillStale(rdb *redis.Client, id, version string) {
	if v := rdb.Get(ctx, "page:"+id).Val(); v == "" || v < version {
		rdb.Set(ctx, "page:"+id, version, time.Minute) // want `SET of "page:" \+ id depends on the GET before it .*MaxUpdate`
	}
}

// A counter updated in place before it is written back.
func incrInPlace(rdb *redis.Client, id string) {
	n, _ := rdb.Get(ctx, "n:"+id).Int()
	n++
	n = n * 2
	rdb.Set(ctx, "n:"+id, n, 0) // want `SET of "n:" \+ id depends on the GET before it`
}

// Silent: the read-modify-write runs under a lock.
func underSetNX(rdb *redis.Client, id string) {
	if !rdb.SetNX(ctx, "acct:{"+id+"}:lock", "me", time.Second).Val() {
		return
	}
	n, _ := rdb.Get(ctx, "acct:{"+id+"}:balance").Int()
	rdb.Set(ctx, "acct:{"+id+"}:balance", n+1, 0)
}

// mutex stands for a distributed lock library's type.
type mutex struct{}

func (mutex) Lock()   {}
func (mutex) Unlock() {}

func underMutex(rdb *redis.Client, mu mutex, id string) {
	mu.Lock()
	defer mu.Unlock()
	n, _ := rdb.Get(ctx, "acct:{"+id+"}:balance").Int()
	rdb.Set(ctx, "acct:{"+id+"}:balance", n+1, 0)
}

// A process-local mutex does not stop another process.
func underSyncMutex(rdb *redis.Client, mu *sync.Mutex, id string) {
	mu.Lock()
	defer mu.Unlock()
	n, _ := rdb.Get(ctx, "acct:{"+id+"}:balance").Int()
	rdb.Set(ctx, "acct:{"+id+"}:balance", n+1, 0) // want `SET of "acct:\{" \+ id \+ "\}:balance" depends on the GET before it`
}

// Silent: a copy from one server to another.
func copyKey(src, dst *redis.Client, id string) {
	v, _ := src.Get(ctx, "n:"+id).Int()
	dst.Set(ctx, "n:"+id, v+1, 0)
}

// Reported: the write is queued in a pipeline of the same client.
func viaPipeline(rdb *redis.Client, id string) {
	n, _ := rdb.Get(ctx, "n:"+id).Int()
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error { // want `SET \(in Pipelined\) of "n:" \+ id depends on the GET before it .*; use INCRBY`
		p.Set(ctx, "n:"+id, n+1, 0)
		return nil
	})
}

// Silent: other fields, other keys, a write before the read.
func others(rdb *redis.Client, id string) {
	n, _ := rdb.HGet(ctx, "user:{"+id+"}", "a").Int()
	rdb.HSet(ctx, "user:{"+id+"}", "b", n+1)
	m, _ := rdb.Get(ctx, "x:"+id).Int()
	rdb.Set(ctx, "y:"+id, m+1, 0)
	rdb.Set(ctx, "z:"+id, 1, 0)
	rdb.Get(ctx, "z:"+id)
}

// Silent: each iteration writes then reads back its own key; the read of
// one iteration only decides whether the next iteration's write, to
// another key, happens.
func writeThenVerify(rdb *redis.Client, worker int, n int) error {
	for i := 0; i < n; i++ {
		key := "pair:" + strconv.Itoa(worker) + ":" + strconv.Itoa(i)
		if err := rdb.Set(ctx, key, "v", 0).Err(); err != nil {
			return err
		}
		if got, err := rdb.Get(ctx, key).Result(); err != nil || got != "v" {
			return err
		}
	}
	return nil
}

// Silent too over one key per worker: the GET only decides whether the
// next iteration runs, and the SET there writes a value of its own, not
// one taken from the GET.
func writeThenVerifyOneKey(rdb *redis.Client, worker int, n int) error {
	key := "noise:" + strconv.Itoa(worker)
	for i := 0; i < n; i++ {
		want := "v" + strconv.Itoa(i)
		if err := rdb.Set(ctx, key, want, 0).Err(); err != nil {
			return err
		}
		if got, err := rdb.Get(ctx, key).Result(); err != nil || got != want {
			return err
		}
	}
	return nil
}

// A running total per range element, the read and write in one iteration:
// the key varies, but the write follows the read within the iteration.
func perItemTotals(rdb *redis.Client, items []string) {
	for _, item := range items {
		n, _ := rdb.Get(ctx, "total:"+item).Int()
		rdb.Set(ctx, "total:"+item, n+1, 0) // want `SET of "total:" \+ item depends on the GET before it`
	}
}

// The value read in one iteration is written in the next: a lost update
// across the loop's back edge.
func carryOver(rdb *redis.Client, n int) {
	var prev int64
	for i := 0; i < n; i++ {
		rdb.Set(ctx, "carry", prev+1, 0) // want `SET of "carry" depends on the GET before it`
		prev, _ = rdb.Get(ctx, "carry").Int64()
	}
}

// A read that decides, within one iteration, whether to write: still a
// race between the check and the write.
func maxPerIteration(rdb *redis.Client, vals []int64) {
	for _, v := range vals {
		cur, _ := rdb.Get(ctx, "best").Int64()
		if cur < v {
			rdb.Set(ctx, "best", v, 0) // want `SET of "best" depends on the GET before it`
		}
	}
}
