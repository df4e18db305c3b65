// Package crossslot holds valkey-go builder commands, transactions and
// scripts whose keys may not share a slot, and ones whose keys do.
package crossslot

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func literal(ctx context.Context, c valkey.Client, id string) {
	c.Do(ctx, c.B().Mget().Key("user:1", "user:2").Build())                            // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.Do(ctx, c.B().Mget().Key("{user}:1", "{user}:2").Build())                        // same tag
	c.Do(ctx, c.B().Rename().Key("a:"+id).Newkey("b:"+id).Build())                     // want `RENAME keys "a:" \+ id and "b:" \+ id share no hash tag`
	c.Do(ctx, c.B().Sinterstore().Destination("{"+id+"}:d").Key("{"+id+"}:s").Build()) // tagged
}

// A plain DoMulti is a pipeline.
func pipeline(ctx context.Context, c valkey.Client, id string) {
	c.DoMulti(ctx,
		c.B().Set().Key("a:"+id).Value("1").Build(),
		c.B().Set().Key("b:"+id).Value("2").Build())
	valkey.MGet(c, ctx, []string{"a:" + id, "b:" + id})
}
