package crossslot

import (
	"github.com/redis/go-redis/v9"
)

// Every client type: the method's package decides, not the variable's type.
func clients(c *redis.Client, cc *redis.ClusterClient, r *redis.Ring, u redis.UniversalClient,
	cm redis.Cmdable, p redis.Pipeliner, tx *redis.Tx, conn *redis.Conn, id string) {
	c.MGet(ctx, "a:"+id, "b:"+id)    // want `MGET keys`
	cc.MGet(ctx, "a:"+id, "b:"+id)   // want `MGET keys`
	r.MGet(ctx, "a:"+id, "b:"+id)    // want `MGET keys`
	u.MGet(ctx, "a:"+id, "b:"+id)    // want `MGET keys`
	cm.MGet(ctx, "a:"+id, "b:"+id)   // want `MGET keys`
	p.MGet(ctx, "a:"+id, "b:"+id)    // want `MGET keys`
	tx.MGet(ctx, "a:"+id, "b:"+id)   // want `MGET keys`
	conn.MGet(ctx, "a:"+id, "b:"+id) // want `MGET keys`
	conn.MGet(ctx, "a:{"+id+"}", "b:{"+id+"}")
}

// Flow: only straight-line assignments are followed.
func flow(c *redis.Client, id string, cond bool, ids []string) {
	k := "a:{" + id + "}"
	if cond {
		k = "b:" + id
	}
	c.MGet(ctx, k, "a:{"+id+"}") // k depends on the branch: unresolved, silent without -strict

	j := "j:" + id
	j = "j:{" + id + "}"
	c.MGet(ctx, j, "k:{"+id+"}") // the later straight-line value counts

	var acc string
	for _, x := range ids {
		c.MGet(ctx, acc, "a:{"+id+"}") // acc changes around the loop: unresolved
		acc = "p:" + x
	}

	f := func() { k = "c:" + id }
	f()
	c.MGet(ctx, k, "a:{"+id+"}") // written by a closure: unresolved

	m := "m:" + id
	n := m + ":x"
	c.MGet(ctx, m, n) // want `MGET keys "m:" \+ id and "m:" \+ id \+ ":x" share no hash tag`
}
