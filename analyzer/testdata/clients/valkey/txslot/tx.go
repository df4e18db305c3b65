// Package txslot holds a MULTI ... EXEC transaction sent with valkey-go.
package txslot

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func multiExec(ctx context.Context, c valkey.Client, id string) {
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
}
