// Package compattx holds rueidiscompat transactions.
package compattx

import (
	"context"

	"github.com/redis/rueidis/rueidiscompat"
)

func txPipelined(ctx context.Context, c rueidiscompat.Cmdable, id string) {
	c.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, "a:"+id)
		p.Incr(ctx, "b:"+id) // want `TxPipelined transaction keys "a:" \+ id and "b:" \+ id share no hash tag`
		return nil
	})
	c.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, "{"+id+"}:a")
		p.Incr(ctx, "{"+id+"}:b")
		return nil
	})
}

func watch(ctx context.Context, c rueidiscompat.Cmdable, id string) error {
	return c.Watch(ctx, func(tx rueidiscompat.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
			p.Set(ctx, "order:"+id, 1, 0) // want `Watch transaction keys "stock:" \+ id and "order:" \+ id share no hash tag`
			return nil
		})
		return err
	}, "stock:"+id)
}
