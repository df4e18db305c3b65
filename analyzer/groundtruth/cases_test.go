package groundtruth

import (
	"context"
	"errors"
	"fmt"

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
