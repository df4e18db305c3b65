// Package clean uses valkey-go in ways no rule reports: helpers that split
// keys per slot, pipelines, and keys that share a hash tag.
package clean

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func helpers(ctx context.Context, c valkey.Client, id string) {
	keys := []string{"user:1", "user:2", "a:" + id}
	valkey.MGet(c, ctx, keys)
	valkey.MGetCache(c, ctx, time.Minute, keys)
	valkey.MSet(c, ctx, map[string]string{"a": "1", "b": "2"})
	valkey.MDel(c, ctx, keys)
	valkey.JsonMGet(c, ctx, keys, "$")
}

func pipeline(ctx context.Context, c valkey.Client, ids []string) {
	cmds := make(valkey.Commands, 0, len(ids))
	for _, id := range ids {
		cmds = append(cmds, c.B().Get().Key("user:"+id).Build())
	}
	c.DoMulti(ctx, cmds...)
}

func tagged(ctx context.Context, c valkey.Client, id string) {
	c.Do(ctx, c.B().Mget().Key("{"+id+"}:a", "{"+id+"}:b").Build())
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Incr().Key("{"+id+"}:a").Build(),
		c.B().Incr().Key("{"+id+"}:b").Build(),
		c.B().Exec().Build())
	s := valkey.NewLuaScript(`return redis.call("GET", KEYS[1])`)
	s.Exec(ctx, c, []string{"{" + id + "}:a"}, nil)
}
