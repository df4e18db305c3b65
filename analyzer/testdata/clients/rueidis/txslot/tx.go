// Package txslot holds MULTI ... EXEC transactions sent with rueidis.
package txslot

import (
	"context"

	"github.com/redis/rueidis"
)

func multiExec(ctx context.Context, c rueidis.Client, id string) {
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("a:"+id).Value("1").Build(),
		c.B().Set().Key("b:"+id).Value("2").Build(), // want `MULTI/EXEC transaction keys "a:" \+ id and "b:" \+ id share no hash tag`
		c.B().Exec().Build(),
	)
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("{"+id+"}:a").Value("1").Build(),
		c.B().Set().Key("{"+id+"}:b").Value("2").Build(),
		c.B().Exec().Build(),
	)
	// No MULTI: a pipeline.
	c.DoMulti(ctx,
		c.B().Set().Key("a:"+id).Value("1").Build(),
		c.B().Set().Key("b:"+id).Value("2").Build(),
	)
}

// Commands collected in a slice, one per loop iteration.
func loop(ctx context.Context, c rueidis.Client, ids []string) {
	cmds := make(rueidis.Commands, 0, len(ids)+2)
	cmds = append(cmds, c.B().Multi().Build())
	for _, id := range ids {
		cmds = append(cmds, c.B().Incr().Key("n:"+id).Build()) // want `MULTI/EXEC transaction keys "n:" \+ id and "n:" \+ id of another loop iteration share no hash tag`
	}
	cmds = append(cmds, c.B().Exec().Build())
	c.DoMulti(ctx, cmds...)
}

// WATCH on a dedicated connection guards the transaction: its keys join
// the transaction's.
func watched(ctx context.Context, c rueidis.Client, id string) error {
	return c.Dedicated(func(d rueidis.DedicatedClient) error {
		d.Do(ctx, d.B().Watch().Key("stock:"+id).Build())
		d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Decr().Key("order:"+id).Build(), // want `MULTI/EXEC transaction keys "stock:" \+ id and "order:" \+ id share no hash tag`
			d.B().Exec().Build(),
		)
		d.Do(ctx, d.B().Watch().Key("{"+id+"}:stock").Build())
		d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Decr().Key("{"+id+"}:stock").Build(),
			d.B().Exec().Build(),
		)
		return nil
	})
}
