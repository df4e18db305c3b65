package groundtruth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Every case takes the client, and id: a value unknown to the analyzer that
// the test varies. The first line of a case's comment is its label.

type caseFunc func(ctx context.Context, c redis.UniversalClient, id string) error

var cases = map[string]caseFunc{
	"mgetLiteral": mgetLiteral, "mgetLiteralTag": mgetLiteralTag,
	"mgetHoles": mgetHoles, "mgetTagged": mgetTagged,
	"delSprintf": delSprintf, "delSprintfTag": delSprintfTag,
	"loopKeys": loopKeys, "loopSameTag": loopSameTag,
	"renameHoles": renameHoles, "renameTagged": renameTagged,
	"msetPairs": msetPairs, "msetMapTagged": msetMapTagged,
	"doMGet": doMGet, "doMGetTagged": doMGetTagged,
	"zinterStore": zinterStore, "zinterStoreTagged": zinterStoreTagged,
	"builders": builders, "buildersTagged": buildersTagged,
	"reassigned": reassigned,
	"txHoles":    txHoles, "txTagged": txTagged, "txLoop": txLoop,
	"txPipeline": txPipeline, "txPipelineTagged": txPipelineTagged,
	"plainPipeline": plainPipeline,
	"watchKeys":     watchKeys, "watchTagged": watchTagged,
	"evalHoles": evalHoles, "evalTagged": evalTagged, "evalLiteral": evalLiteral,
	"scriptRun": scriptRun, "scriptRunTagged": scriptRunTagged,
	"singleKey": singleKey,
	"methods":   methods, "methodsTagged": methodsTagged,
	"txHeld": txHeld, "txHeldTagged": txHeldTagged,
	"fieldKeys": fieldKeys, "fieldKeysTagged": fieldKeysTagged,
	"structKeys": structKeys, "structKeysTagged": structKeysTagged,
	"prefixField": prefixField, "prefixFieldTagged": prefixFieldTagged,
	"template": template, "templateTagged": templateTagged,
	"txPerKey": txPerKey,
	"txHelper": txHelper, "txHelperTagged": txHelperTagged,
}

// SL1001
func mgetLiteral(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MGet(ctx, "slotlint-gt:user:1", "slotlint-gt:user:2").Err()
}

// clean
func mgetLiteralTag(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MGet(ctx, "{slotlint-gt}:user:1", "{slotlint-gt}:user:2").Err()
}

// SL1002
func mgetHoles(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MGet(ctx, "gt:a:"+id, "gt:b:"+id).Err()
}

// clean
func mgetTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MGet(ctx, "gt:a:{"+id+"}", "gt:b:{"+id+"}").Err()
}

// SL1002
func delSprintf(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.Del(ctx, fmt.Sprintf("gt:x:%s", id), fmt.Sprintf("gt:y:%s", id)).Err()
}

// clean
func delSprintfTag(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.Del(ctx, fmt.Sprintf("gt:x:{%s}", id), fmt.Sprintf("gt:y:{%s}", id)).Err()
}

// SL1002
func loopKeys(ctx context.Context, c redis.UniversalClient, id string) error {
	var ks []string
	for _, part := range []string{id + "1", id + "2", id + "3"} {
		ks = append(ks, "gt:item:"+part)
	}
	return c.MGet(ctx, ks...).Err()
}

// clean
func loopSameTag(ctx context.Context, c redis.UniversalClient, id string) error {
	var ks []string
	for _, part := range []string{"1", "2", "3"} {
		ks = append(ks, "gt:{"+id+"}:item:"+part)
	}
	return c.MGet(ctx, ks...).Err()
}

// SL1002
func renameHoles(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNoSuchKey(c.Rename(ctx, "gt:src:"+id, "gt:dst:"+id).Err())
}

// clean
func renameTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNoSuchKey(c.Rename(ctx, "gt:src:{"+id+"}", "gt:dst:{"+id+"}").Err())
}

// SL1002
func msetPairs(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MSet(ctx, "gt:m1:"+id, 1, "gt:m2:"+id, 2).Err()
}

// clean
func msetMapTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MSet(ctx, map[string]interface{}{"gt:m1:{" + id + "}": 1, "gt:m2:{" + id + "}": 2}).Err()
}

// SL1001
func doMGet(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.Do(ctx, "MGET", "slotlint-gt:d:1", "slotlint-gt:d:2").Err()
}

// clean
func doMGetTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.Do(ctx, "MGET", "gt:d1:{"+id+"}", "gt:d2:{"+id+"}").Err()
}

// SL1002
func zinterStore(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.ZInterStore(ctx, "gt:zo:"+id, &redis.ZStore{Keys: []string{"gt:z1:" + id, "gt:z2:" + id}}).Err()
}

// clean
func zinterStoreTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.ZInterStore(ctx, "gt:zo:{"+id+"}", &redis.ZStore{Keys: []string{"gt:z1:{" + id + "}", "gt:z2:{" + id + "}"}}).Err()
}

func profileKey(id string) string  { return "gt:profile:" + id }
func settingsKey(id string) string { return "gt:settings:" + id }
func profileTag(id string) string  { return "gt:profile:{" + id + "}" }
func settingsTag(id string) string { return "gt:settings:{" + id + "}" }

// SL1002
func builders(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MGet(ctx, profileKey(id), settingsKey(id)).Err()
}

// clean
func buildersTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.MGet(ctx, profileTag(id), settingsTag(id)).Err()
}

// gtQueue builds its keys in methods, from its fields.
type gtQueue struct{ name string }

func (q *gtQueue) pending() string { return "gt:q:{" + q.name + "}:pending" }
func (q *gtQueue) running() string { return "gt:q:{" + q.name + "}:running" }
func (q *gtQueue) stats() string   { return "gt:q:stats:" + q.name }
func (q *gtQueue) lease() string   { return "gt:q:lease:" + q.name }

// SL1002
func methods(ctx context.Context, c redis.UniversalClient, id string) error {
	q := &gtQueue{name: id}
	return c.Del(ctx, q.stats(), q.lease()).Err()
}

// clean
func methodsTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	q := &gtQueue{name: id}
	return c.Exists(ctx, q.pending(), q.running()).Err()
}

// SL1002
func reassigned(ctx context.Context, c redis.UniversalClient, id string) error {
	k := "gt:r:{" + id + "}" //lint:ignore SA4006 the case is a key overwritten before use
	k = "gt:r:" + id
	return c.Exists(ctx, k, "gt:r:{"+id+"}").Err()
}

// SL1003
func txHoles(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "gt:hits:"+id)
		p.Incr(ctx, "gt:total:"+id)
		return nil
	})
	return txErr(cmds, err)
}

// SL1003
func txHeld(ctx context.Context, c redis.UniversalClient, id string) error {
	queue := func(p redis.Pipeliner) error {
		p.Incr(ctx, "gt:held:"+id)
		p.Incr(ctx, "gt:heldtotal:"+id)
		return nil
	}
	cmds, err := c.TxPipelined(ctx, queue)
	return txErr(cmds, err)
}

// clean
func txHeldTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	queue := func(p redis.Pipeliner) error {
		p.Incr(ctx, "gt:held:{"+id+"}")
		p.Incr(ctx, "gt:heldtotal:{"+id+"}")
		return nil
	}
	cmds, err := c.TxPipelined(ctx, queue)
	return txErr(cmds, err)
}

// clean
func txTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "gt:hits:{"+id+"}")
		p.Incr(ctx, "gt:total:{"+id+"}")
		return nil
	})
	return txErr(cmds, err)
}

// SL1003
func txLoop(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, part := range []string{id + "a", id + "b", id + "c"} {
			p.Incr(ctx, "gt:n:"+part)
		}
		return nil
	})
	return txErr(cmds, err)
}

// SL1003
func txPipeline(ctx context.Context, c redis.UniversalClient, id string) error {
	pipe := c.TxPipeline()
	pipe.Set(ctx, "gt:tp1:"+id, 1, 0)
	pipe.Set(ctx, "gt:tp2:"+id, 2, 0)
	cmds, err := pipe.Exec(ctx)
	return txErr(cmds, err)
}

// clean
func txPipelineTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	pipe := c.TxPipeline()
	pipe.Set(ctx, "gt:tp1:{"+id+"}", 1, 0)
	pipe.Set(ctx, "gt:tp2:{"+id+"}", 2, 0)
	cmds, err := pipe.Exec(ctx)
	return txErr(cmds, err)
}

// clean
func plainPipeline(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "gt:pp1:"+id)
		p.Incr(ctx, "gt:pp2:"+id)
		return nil
	})
	return txErr(cmds, err)
}

// SL1003
func watchKeys(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.Watch(ctx, func(tx *redis.Tx) error { return nil }, "gt:w1:"+id, "gt:w2:"+id)
}

// clean
func watchTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return c.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, "gt:w1:{"+id+"}").Int()
		if err != nil && err != redis.Nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "gt:w1:{"+id+"}", n+1, 0)
			p.Set(ctx, "gt:w2:{"+id+"}", n, 0)
			return nil
		})
		return err
	}, "gt:w1:{"+id+"}", "gt:w2:{"+id+"}")
}

// SL1004
func evalHoles(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(c.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"gt:e1:" + id, "gt:e2:" + id}).Err())
}

// clean
func evalTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(c.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"gt:e1:{" + id + "}", "gt:e2:{" + id + "}"}).Err())
}

// SL1004
func evalLiteral(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(c.Eval(ctx, "return 1", []string{"slotlint-gt:e:1", "slotlint-gt:e:2"}).Err())
}

var getScript = redis.NewScript("return redis.call('GET', KEYS[1])")

// SL1004
func scriptRun(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(getScript.Run(ctx, c, []string{"gt:s1:" + id, "gt:s2:" + id}).Err())
}

// clean
func scriptRunTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(getScript.Run(ctx, c, []string{"gt:s1:{" + id + "}", "gt:s2:{" + id + "}"}).Err())
}

// clean
func singleKey(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(c.Get(ctx, "gt:single:"+id).Err())
}

// txErr joins EXEC's error with each queued command's: Redis reports
// CROSSSLOT on the queued command and EXECABORT on EXEC.
func txErr(cmds []redis.Cmder, err error) error {
	errs := []error{err}
	for _, c := range cmds {
		errs = append(errs, c.Err())
	}
	return errors.Join(errs...)
}

func ignoreNil(err error) error {
	if err == redis.Nil {
		return nil
	}
	return err
}

func ignoreNoSuchKey(err error) error {
	if err != nil && err.Error() == "ERR no such key" {
		return nil
	}
	return err
}

// gtStore holds keys in fields its constructor sets once, as queue and
// rate-limiter libraries do; openGTStore hands one out without showing
// how it was built.
type gtStore struct {
	countKey, resetKey string
	lockKey, itemsKey  string
	prefix             string
}

func newGTStore(name, prefix string) *gtStore {
	return &gtStore{countKey: "gt:st:" + name + ":count", resetKey: "gt:st:" + name + ":reset",
		lockKey: "gt:st:{" + name + "}:lock", itemsKey: "gt:st:{" + name + "}:items", prefix: prefix}
}

func openGTStore(name string) *gtStore { s := newGTStore(name, "gt:sess:"); return s }

// SL1002
func fieldKeys(ctx context.Context, c redis.UniversalClient, id string) error {
	s := openGTStore(id)
	return c.Del(ctx, s.countKey, s.resetKey).Err()
}

// clean
func fieldKeysTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	s := openGTStore(id)
	return c.Del(ctx, s.lockKey, s.itemsKey).Err()
}

// gtKeySet is a struct of keys a function returns.
type gtKeySet struct{ Stream, Set string }

func gtKeys(q string) gtKeySet {
	return gtKeySet{Stream: "gt:ks:" + q + ":stream", Set: "gt:ks:" + q + ":set"}
}

func gtKeysTagged(q string) gtKeySet {
	return gtKeySet{Stream: "gt:ks:{" + q + "}:stream", Set: "gt:ks:{" + q + "}:set"}
}

// SL1002
func structKeys(ctx context.Context, c redis.UniversalClient, id string) error {
	k := gtKeys(id)
	return c.Del(ctx, k.Stream, k.Set).Err()
}

// clean
func structKeysTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	k := gtKeysTagged(id)
	return c.Del(ctx, k.Stream, k.Set).Err()
}

// SL1002
func prefixField(ctx context.Context, c redis.UniversalClient, id string) error {
	s := openGTStore(id)
	return ignoreNoSuchKey(c.Rename(ctx, s.prefix+id, s.prefix+strings.ToUpper(id)).Err())
}

// clean
func prefixFieldTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	s := openGTStore(id)
	return ignoreNoSuchKey(c.Rename(ctx, s.prefix+"{"+id+"}", s.prefix+"{"+id+"}:old").Err())
}

// SL1002
func template(ctx context.Context, c redis.UniversalClient, id string) error {
	ready := strings.ReplaceAll("gt:q::[{queue}]::ready", "{queue}", id)
	busy := strings.ReplaceAll("gt:q::[{queue}]::busy", "{queue}", id)
	return c.Del(ctx, ready, busy).Err()
}

// clean
func templateTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	r := strings.NewReplacer("<queue>", id)
	return c.Del(ctx, r.Replace("gt:q:{<queue>}:ready"), r.Replace("gt:q:{<queue>}:busy")).Err()
}

// SL1003
func txPerKey(ctx context.Context, c redis.UniversalClient, id string) error {
	keys := strings.Fields(id + "a " + id + "b " + id + "c " + id + "d")
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range keys {
			p.Set(ctx, k, 1, 0)
		}
		return nil
	})
	return txErr(cmds, err)
}

// queueHit and queueTotal queue on the pipeliner their caller hands them.
func queueHit(ctx context.Context, p redis.Pipeliner, id string) {
	p.Incr(ctx, "gt:hit:{"+id+"}")
}

func queueTotal(ctx context.Context, p redis.Pipeliner, id string) {
	p.Incr(ctx, "gt:total:"+id)
}

func queueTotalTagged(ctx context.Context, p redis.Pipeliner, id string) {
	p.Incr(ctx, "gt:total:{"+id+"}")
}

// SL1003
func txHelper(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queueHit(ctx, p, id)
		queueTotal(ctx, p, id)
		return nil
	})
	return txErr(cmds, err)
}

// clean
func txHelperTagged(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queueHit(ctx, p, id)
		queueTotalTagged(ctx, p, id)
		return nil
	})
	return txErr(cmds, err)
}
