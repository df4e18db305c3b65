// Package crossslot holds rueidis builder commands whose keys may not
// share a slot, and ones whose keys do.
package crossslot

import (
	"context"
	"fmt"

	"github.com/redis/rueidis"
)

func literal(ctx context.Context, c rueidis.Client) {
	c.Do(ctx, c.B().Mget().Key("user:1", "user:2").Build())                 // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.Do(ctx, c.B().Rename().Key("a").Newkey("b").Build())                  // want `RENAME keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	c.Do(ctx, c.B().Mget().Key("{user}:1", "{user}:2").Build())             // same tag: one slot
	c.Do(ctx, c.B().Get().Key("user:1").Build())                            // one key
	c.DoCache(ctx, c.B().Mget().Key("user:1", "user:2").Cache(), 0)         // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.Do(ctx, c.B().Arbitrary("MGET").Keys("user:1", "user:2").Build())     // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.Do(ctx, c.B().Arbitrary("MGET").Keys("{user}:1", "{user}:2").Build()) // same tag
}

func holes(ctx context.Context, c rueidis.Client, id string) {
	c.Do(ctx, c.B().Del().Key("a:"+id, "b:"+id).Build())                                                 // want `DEL keys "a:" \+ id and "b:" \+ id share no hash tag`
	c.Do(ctx, c.B().Del().Key("a:{"+id+"}", "b:{"+id+"}").Build())                                       // tagged
	c.Do(ctx, c.B().Sunionstore().Destination(fmt.Sprintf("dst:%s", id)).Key("s:"+id).Build())           // want `SUNIONSTORE keys "dst:" \+ id and "s:" \+ id share no hash tag`
	c.Do(ctx, c.B().Sunionstore().Destination("dst:{"+id+"}").Key("s1:{"+id+"}", "s2:{"+id+"}").Build()) // tagged
	c.Do(ctx, c.B().Mset().KeyValue().KeyValue("k:"+id, "1").KeyValue("l:"+id, "2").Build())             // want `MSET keys "k:" \+ id and "l:" \+ id share no hash tag`
	c.Do(ctx, c.B().Mset().KeyValue().KeyValue("{"+id+"}:k", "1").KeyValue("{"+id+"}:l", "2").Build())   // tagged
	c.Do(ctx, c.B().Lmove().Source("q:"+id).Destination("done:"+id).Left().Right().Build())              // want `LMOVE keys "q:" \+ id and "done:" \+ id share no hash tag`
	c.Do(ctx, c.B().Smove().Source("{"+id+"}:a").Destination("{"+id+"}:b").Member("m").Build())          // tagged
}

// A chain kept in a variable and keys collected in a loop.
func variables(ctx context.Context, c rueidis.Client, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, "item:"+id)
	}
	cmd := c.B().Mget().Key(keys...).Build() // want `MGET keys "item:" \+ id and "item:" \+ id of another loop iteration share no hash tag`
	c.Do(ctx, cmd)

	var tagged []string
	for _, id := range ids {
		tagged = append(tagged, "{items}:"+id)
	}
	c.Do(ctx, c.B().Del().Key(tagged...).Build())
}

// A command built by a helper and sent by the caller is reported once, at
// its builder.
func build(c rueidis.Client, id string) rueidis.Completed {
	return c.B().Exists().Key("x:"+id, "y:"+id).Build() // want `EXISTS keys "x:" \+ id and "y:" \+ id share no hash tag`
}

func send(ctx context.Context, c rueidis.Client, id string) {
	c.Do(ctx, build(c, id))
}

// A plain DoMulti is a pipeline: each command only needs its own keys in
// one slot.
func pipeline(ctx context.Context, c rueidis.Client, id string) {
	c.DoMulti(ctx,
		c.B().Set().Key("a:"+id).Value("1").Build(),
		c.B().Set().Key("b:"+id).Value("2").Build(),
		c.B().Mget().Key("p:"+id, "q:"+id).Build(), // want `MGET keys "p:" \+ id and "q:" \+ id share no hash tag`
	)
}
