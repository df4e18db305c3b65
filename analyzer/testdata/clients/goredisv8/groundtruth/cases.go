// Package groundtruth holds go-redis v8 cases whose slotlint label is
// checked against a real Redis Cluster: the first line of each case's
// comment is the rule the analyzers must report inside it, or "clean".
package groundtruth

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-redis/redis/v8"
)

// A Case runs its commands through c; id is a value the analyzer does not
// know.
type Case func(ctx context.Context, c redis.UniversalClient, id string) error

// Cases are every case by name.
var Cases = map[string]Case{
	"mgetLiteral": mgetLiteral, "mgetLiteralTag": mgetLiteralTag,
	"mgetHoles": mgetHoles, "mgetTagged": mgetTagged,
	"delSprintf": delSprintf, "delSprintfTag": delSprintfTag,
	"loopKeys": loopKeys, "loopSameTag": loopSameTag,
	"msetPairs": msetPairs, "msetMapTagged": msetMapTagged,
	"doMGet": doMGet, "doMGetTagged": doMGetTagged,
	"txHoles": txHoles, "txTagged": txTagged,
	"txPipeline": txPipeline, "plainPipeline": plainPipeline,
	"watchKeys": watchKeys, "watchTagged": watchTagged,
	"evalHoles": evalHoles, "scriptRun": scriptRun, "scriptRunTagged": scriptRunTagged,
	"singleKey": singleKey,
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

// SL1003
func txHoles(ctx context.Context, c redis.UniversalClient, id string) error {
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "gt:hits:"+id)
		p.Incr(ctx, "gt:total:"+id)
		return nil
	})
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
func txPipeline(ctx context.Context, c redis.UniversalClient, id string) error {
	pipe := c.TxPipeline()
	pipe.Set(ctx, "gt:tp1:"+id, 1, 0)
	pipe.Set(ctx, "gt:tp2:"+id, 2, 0)
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
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "gt:w1:{"+id+"}", 1, 0)
			p.Set(ctx, "gt:w2:{"+id+"}", 2, 0)
			return nil
		})
		return err
	}, "gt:w1:{"+id+"}", "gt:w2:{"+id+"}")
}

// SL1004
func evalHoles(ctx context.Context, c redis.UniversalClient, id string) error {
	return ignoreNil(c.Eval(ctx, "return redis.call('GET', KEYS[1]) or redis.call('GET', KEYS[2])", []string{"gt:e1:" + id, "gt:e2:" + id}).Err())
}

var getScript = redis.NewScript("return redis.call('GET', KEYS[1]) or redis.call('GET', KEYS[2])")

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

// txErr joins a pipeline's error with each queued command's: Redis reports
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
