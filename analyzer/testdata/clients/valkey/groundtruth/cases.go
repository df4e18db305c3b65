// Package groundtruth holds executable valkey-go cases. The first line of a
// case's comment is its label: the rule the analyzer must report in it
// (SL1001 to SL1004), or clean. Its test runs every case against a Redis
// Cluster and checks the label against what Redis and the client do.
package groundtruth

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

// Case runs one case; id is a value unknown to the analyzer that the test
// varies.
type Case func(ctx context.Context, c valkey.Client, id string) error

// Cases are every case by name.
var Cases = map[string]Case{
	"mgetLiteral": mgetLiteral, "mgetLiteralTag": mgetLiteralTag,
	"mgetHoles": mgetHoles, "mgetTagged": mgetTagged,
	"renameHoles": renameHoles, "renameTagged": renameTagged,
	"msetHoles": msetHoles, "msetTagged": msetTagged,
	"storeHoles": storeHoles, "storeTagged": storeTagged,
	"loopKeys": loopKeys, "loopSameTag": loopSameTag,
	"cachedMget": cachedMget,
	"txHoles":    txHoles, "txTagged": txTagged, "txLoop": txLoop,
	"watchHoles": watchHoles, "watchTagged": watchTagged,
	"pipeline": pipeline,
	"luaHoles": luaHoles, "luaTagged": luaTagged, "luaMulti": luaMulti,
	"evalHoles": evalHoles, "evalTagged": evalTagged,
	"helpers":   helpers,
	"singleKey": singleKey,
}

// SL1001
func mgetLiteral(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Mget().Key("slotlint-gt:user:1", "slotlint-gt:user:2").Build()).Error()
}

// clean
func mgetLiteralTag(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Mget().Key("{slotlint-gt}:user:1", "{slotlint-gt}:user:2").Build()).Error()
}

// SL1002
func mgetHoles(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Mget().Key("gt:a:"+id, "gt:b:"+id).Build()).Error()
}

// clean
func mgetTagged(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Mget().Key("gt:a:{"+id+"}", "gt:b:{"+id+"}").Build()).Error()
}

// SL1002
func renameHoles(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Rename().Key("gt:from:"+id).Newkey("gt:to:"+id).Build()).Error()
}

// clean
func renameTagged(ctx context.Context, c valkey.Client, id string) error {
	if err := c.Do(ctx, c.B().Set().Key("gt:from:{"+id+"}").Value("1").Build()).Error(); err != nil {
		return err
	}
	return c.Do(ctx, c.B().Rename().Key("gt:from:{"+id+"}").Newkey("gt:to:{"+id+"}").Build()).Error()
}

// SL1002
func msetHoles(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Mset().KeyValue().KeyValue("gt:k:"+id, "1").KeyValue("gt:l:"+id, "2").Build()).Error()
}

// clean
func msetTagged(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Mset().KeyValue().KeyValue("gt:k:{"+id+"}", "1").KeyValue("gt:l:{"+id+"}", "2").Build()).Error()
}

// SL1002
func storeHoles(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Sunionstore().Destination("gt:dst:"+id).Key("gt:s1:"+id, "gt:s2:"+id).Build()).Error()
}

// clean
func storeTagged(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Sunionstore().Destination("gt:dst:{"+id+"}").Key("gt:s1:{"+id+"}", "gt:s2:{"+id+"}").Build()).Error()
}

// SL1002
func loopKeys(ctx context.Context, c valkey.Client, id string) error {
	var ks []string
	for _, part := range []string{id + "1", id + "2", id + "3"} {
		ks = append(ks, "gt:item:"+part)
	}
	return c.Do(ctx, c.B().Del().Key(ks...).Build()).Error()
}

// clean
func loopSameTag(ctx context.Context, c valkey.Client, id string) error {
	var ks []string
	for _, part := range []string{"1", "2", "3"} {
		ks = append(ks, "gt:{"+id+"}:item:"+part)
	}
	return c.Do(ctx, c.B().Del().Key(ks...).Build()).Error()
}

// SL1002
func cachedMget(ctx context.Context, c valkey.Client, id string) error {
	return c.DoCache(ctx, c.B().Mget().Key("gt:c:"+id, "gt:d:"+id).Cache(), 0).Error()
}

// SL1003
func txHoles(ctx context.Context, c valkey.Client, id string) error {
	return firstErr(c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("gt:tx:a:"+id).Value("1").Build(),
		c.B().Set().Key("gt:tx:b:"+id).Value("2").Build(),
		c.B().Exec().Build()))
}

// clean
func txTagged(ctx context.Context, c valkey.Client, id string) error {
	return firstErr(c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("gt:tx:{"+id+"}:a").Value("1").Build(),
		c.B().Set().Key("gt:tx:{"+id+"}:b").Value("2").Build(),
		c.B().Exec().Build()))
}

// SL1003
func txLoop(ctx context.Context, c valkey.Client, id string) error {
	cmds := make(valkey.Commands, 0, 5)
	cmds = append(cmds, c.B().Multi().Build())
	for _, part := range []string{"1", "2", "3"} {
		cmds = append(cmds, c.B().Incr().Key("gt:n:"+id+part).Build())
	}
	cmds = append(cmds, c.B().Exec().Build())
	return firstErr(c.DoMulti(ctx, cmds...))
}

// SL1003
func watchHoles(ctx context.Context, c valkey.Client, id string) error {
	return c.Dedicated(func(d valkey.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key("gt:w:stock:"+id).Build()).Error(); err != nil {
			return err
		}
		return firstErr(d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Incr().Key("gt:w:order:"+id).Build(),
			d.B().Exec().Build()))
	})
}

// clean
func watchTagged(ctx context.Context, c valkey.Client, id string) error {
	return c.Dedicated(func(d valkey.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key("gt:w:{"+id+"}:stock").Build()).Error(); err != nil {
			return err
		}
		return firstErr(d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Incr().Key("gt:w:{"+id+"}:order").Build(),
			d.B().Exec().Build()))
	})
}

// clean
func pipeline(ctx context.Context, c valkey.Client, id string) error {
	return firstErr(c.DoMulti(ctx,
		c.B().Set().Key("gt:p:a:"+id).Value("1").Build(),
		c.B().Set().Key("gt:p:b:"+id).Value("2").Build()))
}

var incrBoth = valkey.NewLuaScript(`return redis.call("INCR", KEYS[1]) + redis.call("INCR", KEYS[2])`)

// SL1004
func luaHoles(ctx context.Context, c valkey.Client, id string) error {
	return incrBoth.Exec(ctx, c, []string{"gt:lua:a:" + id, "gt:lua:b:" + id}, nil).Error()
}

// clean
func luaTagged(ctx context.Context, c valkey.Client, id string) error {
	return incrBoth.Exec(ctx, c, []string{"gt:lua:{" + id + "}:a", "gt:lua:{" + id + "}:b"}, nil).Error()
}

// SL1004
func luaMulti(ctx context.Context, c valkey.Client, id string) error {
	return firstErr(incrBoth.ExecMulti(ctx, c,
		valkey.LuaExec{Keys: []string{"gt:lm:{" + id + "}:a", "gt:lm:{" + id + "}:b"}},
		valkey.LuaExec{Keys: []string{"gt:lm:a:" + id, "gt:lm:b:" + id}}))
}

const incrSrc = `return redis.call("INCR", KEYS[1]) + redis.call("INCR", KEYS[2])`

// SL1004
func evalHoles(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Eval().Script(incrSrc).Numkeys(2).Key("gt:ev:a:"+id, "gt:ev:b:"+id).Build()).Error()
}

// clean
func evalTagged(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Eval().Script(incrSrc).Numkeys(2).Key("gt:ev:{"+id+"}:a", "gt:ev:{"+id+"}:b").Build()).Error()
}

// clean
//
// Through a cluster client the helpers send one command per slot.
func helpers(ctx context.Context, c valkey.Client, id string) error {
	keys := []string{"gt:h:a:" + id, "gt:h:b:" + id, "gt:h:c:" + id}
	for _, err := range valkey.MSet(c, ctx, map[string]string{keys[0]: "1", keys[1]: "2", keys[2]: "3"}) {
		if err != nil {
			return err
		}
	}
	if _, err := valkey.MGet(c, ctx, keys); err != nil {
		return err
	}
	for _, err := range valkey.MDel(c, ctx, keys) {
		if err != nil {
			return err
		}
	}
	return nil
}

// clean
func singleKey(ctx context.Context, c valkey.Client, id string) error {
	return c.Do(ctx, c.B().Set().Key("gt:single:"+id).Value("1").Build()).Error()
}

func firstErr(rs []valkey.ValkeyResult) error {
	for _, r := range rs {
		if err := r.Error(); err != nil && !valkey.IsValkeyNil(err) {
			return err
		}
	}
	return nil
}
