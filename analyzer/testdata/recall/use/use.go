package use

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"

	"example.com/slt/recall/keys"
)

var ctx = context.Background()

// Two methods of one value read one field: one hole, one tag.
func orderKeys(rdb *redis.Client, id string) {
	o := keys.Order{ID: id}
	rdb.Del(ctx, o.Lock(), o.Items())
	rdb.Del(ctx, o.Lock(), o.Flat()) // want `DEL keys "order:\{" \+ o.ID \+ "\}:lock" and "order:" \+ o.ID \+ ":flat" share no hash tag`
}

// Two values: the same method builds keys of two ids.
func twoOrders(rdb *redis.Client, a, b keys.Order) {
	rdb.Del(ctx, a.Lock(), b.Items()) // want `DEL keys "order:\{" \+ a.ID \+ "\}:lock" and "order:\{" \+ b.ID \+ "\}:items" share no hash tag`
}

// A function returning a struct of keys built from its argument.
func queueKeys(rdb *redis.Client, q string) {
	k := keys.Keys(q)
	rdb.Del(ctx, k.StreamKey, k.SetKey) // want `DEL keys "q:" \+ q \+ ":stream" and "q:" \+ q \+ ":set" share no hash tag`
	rdb.Del(ctx, keys.TaggedKeys(q).StreamKey, keys.TaggedKeys(q).SetKey)
	t := keys.TaggedKeys(q)
	rdb.Del(ctx, t.StreamKey, t.SetKey, "q:{"+t.Name+"}:x")
}

// Keys held in fields set once by a constructor of another package.
func queueFields(rdb *redis.Client, q, other *keys.Queue) {
	rdb.Del(ctx, q.SetKey(), q.ListKey()) // want `DEL keys q.prefix \+ q.name \+ ":set" and q.prefix \+ q.name \+ ":list" share no hash tag`
	rdb.Del(ctx, q.LockKey(), q.JobsKey())
	rdb.Del(ctx, q.LockKey(), other.JobsKey()) // want `DEL keys q.prefix \+ "\{" \+ q.name \+ "\}:lock" and other.prefix \+ "\{" \+ other.name \+ "\}:jobs" share no hash tag`
	// moved has two writers: its key is not known, and a key not known at
	// all is SL1005's, under -slotlint.strict only.
	rdb.Del(ctx, q.LockKey(), q.Moved())
}

// session keeps its prefix in a field and renames one id to another.
type session struct {
	prefix string
	rdb    *redis.Client
}

func (p *session) rename(oldID, newID string) {
	p.rdb.Rename(ctx, p.prefix+oldID, p.prefix+newID) // want `RENAME keys p.prefix \+ oldID and p.prefix \+ newID share no hash tag`
	p.rdb.Rename(ctx, p.prefix+"{"+oldID+"}", p.prefix+"{"+oldID+"}:old")
}

// A constructor in this package, with the fields read directly.
type limiter struct {
	countKey string
	resetKey string
	tagKey   string
	rdb      *redis.Client
}

func newLimiter(rdb *redis.Client, name string) *limiter {
	l := &limiter{rdb: rdb}
	l.countKey = "rl:" + name + ":count"
	l.resetKey = "rl:" + name + ":reset"
	l.tagKey = "rl:{" + name + "}:count"
	return l
}

func (l *limiter) reset() {
	l.rdb.Del(ctx, l.countKey, l.resetKey) // want `DEL keys "rl:" \+ l.name \+ ":count" and "rl:" \+ l.name \+ ":reset" share no hash tag`
	l.rdb.Del(ctx, l.tagKey, l.tagKey+":x")
}

// Templates filled by strings.Replace, ReplaceAll and a Replacer.
func templates(rdb *redis.Client, queue string) {
	ready := strings.ReplaceAll("q::[{queue}]::ready", "{queue}", queue)
	busy := strings.ReplaceAll("q::[{queue}]::busy", "{queue}", queue)
	rdb.RPopLPush(ctx, ready, busy) // want `RPOPLPUSH keys "q::\[" \+ queue \+ "\]::ready" and "q::\[" \+ queue \+ "\]::busy" share no hash tag`

	a := strings.Replace("q:{<q>}:a:<q>", "<q>", queue, -1)
	b := strings.Replace("q:{<q>}:b", "<q>", queue, 1)
	rdb.RPopLPush(ctx, a, b)

	r := strings.NewReplacer("<q>", queue, "<qq>", "never")
	rdb.RPopLPush(ctx, r.Replace("q:{<q>}:a"), r.Replace("q:{<q>}:b"))
	rdb.RPopLPush(ctx, r.Replace("q:<q>:a"), r.Replace("q:<q>:b"))         // want `RPOPLPUSH keys "q:" \+ queue \+ ":a" and "q:" \+ queue \+ ":b" share no hash tag`
	rdb.RPopLPush(ctx, tmpl.Replace("j:{ID}:a"), tmpl.Replace("j:{ID}:b")) // want `RPOPLPUSH keys "j:" \+ jobID \+ ":a" and "j:" \+ jobID \+ ":b" share no hash tag`
}

var jobID = "job-1"

var tmpl = strings.NewReplacer("{ID}", jobID)
