// Package compat uses rueidiscompat, whose API mirrors go-redis: the
// go-redis rules apply as they are.
package compat

import (
	"context"

	"github.com/redis/rueidis/rueidiscompat"
)

func commands(ctx context.Context, c rueidiscompat.Cmdable, id string) {
	c.MGet(ctx, "user:1", "user:2")                                              // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.MGet(ctx, "{user}:1", "{user}:2")                                          // same tag
	c.Rename(ctx, "a:"+id, "b:"+id)                                              // want `RENAME keys "a:" \+ id and "b:" \+ id share no hash tag`
	c.SUnionStore(ctx, "{"+id+"}:d", "{"+id+"}:a", "{"+id+"}:b")                 // tagged
	c.ZInterStore(ctx, "d:"+id, rueidiscompat.ZStore{Keys: []string{"z:" + id}}) // want `ZINTERSTORE keys "d:" \+ id and "z:" \+ id share no hash tag`
	c.MSet(ctx, "k:"+id, 1, "l:"+id, 2)                                          // want `MSET keys "k:" \+ id and "l:" \+ id share no hash tag`
	c.Get(ctx, "user:1")
}
