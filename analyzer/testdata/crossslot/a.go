package crossslot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

const userPrefix = "user:"

const (
	cartKey  = "cart:{42}"
	orderKey = "order:{42}"
)

// Provably different slots: literal keys.
func literals(rdb *redis.Client) {
	rdb.MGet(ctx, "user:1", "user:2")                 // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	rdb.Del(ctx, userPrefix+"1", userPrefix+"2")      // want `DEL keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	rdb.MGet(ctx, cartKey, orderKey)                  // same tag {42}
	rdb.Exists(ctx, "{user:1}:a", "user:1")           // same slot: tag text equals the whole other key
	rdb.Rename(ctx, "a", "b")                         // want `RENAME keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	rdb.Unlink(ctx, "only")                           // one key
	rdb.Touch(ctx, fmt.Sprintf("t:{%d}", 7), "x:{7}") // Sprintf with a constant operand
}

// Keys with values: no shared tag.
func holes(rdb redis.UniversalClient, id string, n int) {
	rdb.MGet(ctx, "user:"+id, "order:"+id)                          // want `MGET keys "user:" \+ id and "order:" \+ id share no hash tag \(CROSSSLOT risk on a cluster\)`
	rdb.MGet(ctx, "user:{"+id+"}", "order:{"+id+"}")                // tagged: fine
	rdb.SInterStore(ctx, fmt.Sprintf("dst:%s", id), "a:"+id)        // want `SINTERSTORE keys "dst:" \+ id and "a:" \+ id share no hash tag`
	rdb.SInterStore(ctx, fmt.Sprintf("dst:{%s}", id), "a:{"+id+"}") // fine
	rdb.Exists(ctx, "n:{"+strconv.Itoa(n)+"}", fmt.Sprintf("m:{%d}", n))
	rdb.Exists(ctx, "n:"+strconv.Itoa(n), fmt.Sprintf("m:%d", n)) // want `EXISTS keys "n:" \+ strconv.Itoa\(n\) and "m:" \+ n share no hash tag`
	rdb.Del(ctx, "x:{"+id+"}", "x:{"+id+"}:y", "{"+id+"}")
}

// Keys passed in whole are the caller's design: unresolved, reported only
// with -strict (SL1005).
func passedIn(rdb *redis.Client, src, dst, id string) {
	rdb.Rename(ctx, src, dst)
	rdb.MGet(ctx, src, "user:{"+id+"}")
	rdb.MGet(ctx, src, "a:"+id, "b:"+id) // want `MGET keys "a:" \+ id and "b:" \+ id share no hash tag`
}

// Locals, reassignment, const blocks.
func locals(rdb *redis.ClusterClient, id string) {
	a := "user:{" + id + "}"
	b := a + ":profile"
	rdb.MGet(ctx, a, b) // fine: same tag through locals
	c := "user:" + id
	c += ":cart"
	rdb.MGet(ctx, c, a) // want `MGET keys "user:" \+ id \+ ":cart" and "user:\{" \+ id \+ "\}" share no hash tag`
	k := "tmp:{" + id + "}"
	k = "other:" + id  // reassigned before use: the later value counts
	rdb.Del(ctx, k, a) // want `DEL keys "other:" \+ id and "user:\{" \+ id \+ "\}" share no hash tag`
}

// Variadic keys from slices.
func slices(rdb redis.Cmdable, id string, ids []string) {
	keys := []string{"a:{" + id + "}", "b:{" + id + "}"}
	rdb.Del(ctx, keys...) // fine
	var ks []string
	for _, x := range ids {
		ks = append(ks, "user:"+x)
	}
	rdb.MGet(ctx, ks...) // want `MGET keys "user:" \+ x and "user:" \+ x of another loop iteration share no hash tag`
	var same []string
	for range ids {
		same = append(same, "s:{"+id+"}")
	}
	rdb.MGet(ctx, same...) // same value every iteration: fine
	mixed := []string{"p:{" + id + "}"}
	mixed = append(mixed, "q:"+id)
	rdb.Unlink(ctx, mixed...)                                   // want `UNLINK keys "p:\{" \+ id \+ "\}" and "q:" \+ id share no hash tag`
	rdb.MGet(ctx, ids...)                                       // unresolved: silent without -strict
	rdb.Del(ctx, strings.Join([]string{"j", id}, ":"), "j:"+id) // same text both ways: fine
}

// Two-key and destination commands.
func twoKeys(rdb *redis.Client, id string) {
	rdb.SMove(ctx, "src:"+id, "dst:"+id, "m") // want `SMOVE keys`
	rdb.LMove(ctx, "l:{"+id+"}", "r:{"+id+"}", "LEFT", "RIGHT")
	rdb.BLMove(ctx, "l:"+id, "r:"+id, "LEFT", "RIGHT", time.Second) // want `BLMOVE keys`
	rdb.RPopLPush(ctx, "q", "q:processing")                         // want `RPOPLPUSH keys "q" \(slot \d+\) and "q:processing" \(slot \d+\) are in different slots`
	rdb.Copy(ctx, "c:{"+id+"}", "c:{"+id+"}:bak", 0, false)
	rdb.PFMerge(ctx, "hll:all", "hll:"+id) // want `PFMERGE keys`
	rdb.BitOpAnd(ctx, "bits:{"+id+"}:and", "bits:{"+id+"}:1", "bits:{"+id+"}:2")
	rdb.BitOpNot(ctx, "bits:not", "bits:"+id)                                  // want `BITOP NOT keys`
	rdb.ZInterStore(ctx, "z:out", &redis.ZStore{Keys: []string{"z:1", "z:2"}}) // want `ZINTERSTORE keys "z:out" \(slot \d+\) and "z:1" \(slot \d+\) are in different slots`
	rdb.ZUnion(ctx, redis.ZStore{Keys: []string{"{z}:1", "{z}:2"}})
	rdb.ZRangeStore(ctx, "zr:dst", redis.ZRangeArgs{Key: "zr:src", Start: 0, Stop: -1}) // want `ZRANGESTORE keys`
	rdb.LCS(ctx, &redis.LCSQuery{Key1: "{s}1", Key2: "{s}2"})
	rdb.LCS(ctx, &redis.LCSQuery{Key1: "s1:" + id, Key2: "s2:" + id})             // want `LCS keys "s1:" \+ id and "s2:" \+ id share no hash tag`
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"st:a", "st:b", "0", "0"}}) // want `XREAD keys "st:a" \(slot \d+\) and "st:b" \(slot \d+\) are in different slots`
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"st:{a}", "st:{a}:2", "0", "0"}})
	rdb.SortStore(ctx, "list:"+id, "sorted:"+id, &redis.Sort{}) // want `SORT keys`
	rdb.GeoSearchStore(ctx, "geo:{"+id+"}", "geo:{"+id+"}:near", &redis.GeoSearchStoreQuery{})
	rdb.GeoRadiusStore(ctx, "geo:"+id, 1, 2, &redis.GeoRadiusQuery{Radius: 1, Store: "near:" + id}) // want `GEORADIUS keys`
	rdb.ZMPop(ctx, "min", 1, "za", "zb")                                                            // want `ZMPOP keys`
	rdb.BLPop(ctx, time.Second, "jobs:{q}", "jobs:{q}:hi")
	rdb.BZPopMin(ctx, time.Second, "a", "b") // want `BZPOPMIN keys`
}

// MSET in its argument forms.
func mset(rdb *redis.Client, id string) {
	rdb.MSet(ctx, "a:"+id, 1, "b:"+id, 2) // want `MSET keys "a:" \+ id and "b:" \+ id share no hash tag`
	rdb.MSet(ctx, "a:{"+id+"}", 1, "b:{"+id+"}", 2)
	rdb.MSetNX(ctx, map[string]interface{}{"m:1": 1, "m:2": 2}) // want `MSETNX keys "m:1" \(slot \d+\) and "m:2" \(slot \d+\) are in different slots`
	rdb.MSet(ctx, []string{"{m}:1", "x", "{m}:2", "y"})
	rdb.MSet(ctx, []string{"s:1", "x", "s:2", "y"})         // want `MSET keys "s:1" \(slot \d+\) and "s:2" \(slot \d+\) are in different slots`
	rdb.MSetEX(ctx, redis.MSetEXArgs{}, "e:1", 1, "e:2", 2) // want `MSETEX keys`
}

// Do and Process with a literal command name, keys from Redis's key specs.
func generic(rdb *redis.Client, id string) {
	rdb.Do(ctx, "MGET", "d:1", "d:2") // want `MGET keys "d:1" \(slot \d+\) and "d:2" \(slot \d+\) are in different slots`
	rdb.Do(ctx, "mget", "{d}:1", "{d}:2")
	rdb.Do(ctx, "SET", "k:"+id, "v")                                         // one key
	rdb.Do(ctx, "ZUNIONSTORE", "zo:"+id, 2, "za:"+id, "zb:"+id)              // want `ZUNIONSTORE keys`
	rdb.Process(ctx, redis.NewStringSliceCmd(ctx, "sunion", "su:a", "su:b")) // want `SUNION keys`
	cmd := redis.NewIntCmd(ctx, "del", "{x}a", "{x}b")
	rdb.Process(ctx, cmd)
}

// Wrapper types: methods promoted from an embedded client count.
type store struct {
	*redis.Client
}

type repo struct {
	rdb redis.UniversalClient
}

func wrappers(s store, r repo, id string) {
	s.MGet(ctx, "w:"+id, "v:"+id)    // want `MGET keys`
	r.rdb.Del(ctx, "w:"+id, "v:"+id) // want `DEL keys`
	s.MGet(ctx, "w:{"+id+"}", "v:{"+id+"}")
}

// Plain pipelines are split per node: each queued command is checked on
// its own, the pipeline as a whole is not.
func pipelines(rdb *redis.ClusterClient, id string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Get(ctx, "a:"+id)
		p.Get(ctx, "b:"+id)
		p.MGet(ctx, "c:"+id, "d:"+id) // want `MGET keys`
		return nil
	})
}

// Suppression.
func suppressed(rdb *redis.Client, id string) {
	//slotlint:ignore SL1002 both keys live on a single-node Redis
	rdb.MGet(ctx, "x:"+id, "y:"+id)
	rdb.MGet(ctx, "x:"+id, "y:"+id) //slotlint:ignore SL1002 same reason, same line
	//slotlint:ignore SL1002 // want `slotlint:ignore SL1002 needs a reason after the rule ID`
	rdb.MGet(ctx, "x:"+id, "y:"+id) // want `MGET keys`
	//slotlint:ignore SL1001 wrong rule: does not silence SL1002
	rdb.MGet(ctx, "x:"+id, "y:"+id) // want `MGET keys`
}

// queue builds its keys in methods from its name, the hash tag.
type queue struct {
	name string
	id   int
}

func (q *queue) pending() string { return "jobs:{" + q.name + "}:pending" }
func (q *queue) running() string { return "jobs:{" + q.name + "}:running" }
func (q *queue) stats() string   { return fmt.Sprintf("stats:%d", q.id) }
func (q *queue) lease() string   { return fmt.Sprintf("lease:%d", q.id) }

// Silent: both keys come from the same queue's name.
func claim(rdb *redis.Client, q *queue) {
	rdb.RPopLPush(ctx, q.pending(), q.running())
}

func move(rdb *redis.Client, from, to *queue) {
	rdb.RPopLPush(ctx, from.pending(), to.running()) // want `RPOPLPUSH keys "jobs:\{" \+ from.name \+ "\}:pending" and "jobs:\{" \+ to.name \+ "\}:running"`
	rdb.Del(ctx, from.stats(), from.lease())         // want `DEL keys "stats:" \+ from.id and "lease:" \+ from.id share no hash tag`
}
