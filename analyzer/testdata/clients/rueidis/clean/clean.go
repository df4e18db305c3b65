// Package clean uses rueidis in ways no rule reports: helpers that split
// keys per slot, pipelines, and keys that share a hash tag.
package clean

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func helpers(ctx context.Context, c rueidis.Client, id string) {
	keys := []string{"user:1", "user:2", "a:" + id}
	rueidis.MGet(c, ctx, keys)
	rueidis.MGetCache(c, ctx, time.Minute, keys)
	rueidis.MSet(c, ctx, map[string]string{"a": "1", "b": "2"})
	rueidis.MSetNX(c, ctx, map[string]string{"a": "1", "b": "2"})
	rueidis.MDel(c, ctx, keys)
	rueidis.JsonMGet(c, ctx, keys, "$")
	rueidis.JsonMSet(c, ctx, map[string]string{"a": "{}", "b": "{}"}, "$")
}

func pipeline(ctx context.Context, c rueidis.Client, ids []string) {
	cmds := make(rueidis.Commands, 0, len(ids))
	for _, id := range ids {
		cmds = append(cmds, c.B().Get().Key("user:"+id).Build())
	}
	c.DoMulti(ctx, cmds...)
	c.DoMultiCache(ctx,
		rueidis.CT(c.B().Get().Key("a").Cache(), time.Minute),
		rueidis.CT(c.B().Get().Key("b").Cache(), time.Minute))
}

func tagged(ctx context.Context, c rueidis.Client, id string) {
	c.Do(ctx, c.B().Mget().Key("{"+id+"}:a", "{"+id+"}:b").Build())
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Incr().Key("{"+id+"}:a").Build(),
		c.B().Incr().Key("{"+id+"}:b").Build(),
		c.B().Exec().Build())
	s := rueidis.NewLuaScript(`return redis.call("GET", KEYS[1])`)
	s.Exec(ctx, c, []string{"{" + id + "}:a"}, nil)
}
