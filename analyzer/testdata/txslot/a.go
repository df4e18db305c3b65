package txslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

func txPipelined(rdb *redis.ClusterClient, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "hits:"+id)
		p.Incr(ctx, "total") // want `TxPipelined transaction keys "hits:" \+ id and "total" \(slot 2117\) share no hash tag`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "hits:{"+id+"}")
		p.Expire(ctx, "hits:{"+id+"}", 0)
		p.Incr(ctx, "total:{"+id+"}")
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "a", 1, 0)
		p.Set(ctx, "b", 2, 0) // want `TxPipelined transaction keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
		return nil
	})
}

func loops(rdb redis.UniversalClient, ids []string, owner string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			p.Del(ctx, "item:"+id) // want `TxPipelined transaction keys "item:" \+ id and "item:" \+ id of another loop iteration share no hash tag`
		}
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			p.SRem(ctx, "owner:{"+owner+"}:items", id) // the key does not change per iteration
		}
		return nil
	})
}

func txPipeline(rdb *redis.Client, id string) {
	pipe := rdb.TxPipeline()
	pipe.Set(ctx, "x:"+id, 1, 0)
	pipe.Set(ctx, "y:"+id, 1, 0) // want `TxPipeline transaction keys "x:" \+ id and "y:" \+ id share no hash tag`
	pipe.Exec(ctx)

	ok := rdb.TxPipeline()
	ok.Set(ctx, "x:{"+id+"}", 1, 0)
	ok.Set(ctx, "y:{"+id+"}", 1, 0)
	ok.Exec(ctx)

	quiet := rdb.TxPipeline()
	quiet.Set(ctx, "x:"+id, 1, 0)
	quiet.Set(ctx, "y:"+id, 1, 0) //slotlint:ignore SL1003 this service runs on a single Redis
	quiet.Exec(ctx)

	plain := rdb.Pipeline()
	plain.Set(ctx, "x:"+id, 1, 0)
	plain.Set(ctx, "y:"+id, 1, 0)
	plain.Exec(ctx)
}

func watch(rdb *redis.ClusterClient, id string) {
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, _ := tx.Get(ctx, "balance:{"+id+"}").Int()
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "balance:{"+id+"}", n+1, 0)
			p.Set(ctx, "audit:"+id, n, 0) // want `Watch transaction keys "balance:\{" \+ id \+ "\}" and "audit:" \+ id share no hash tag`
			return nil
		})
		return err
	}, "balance:{"+id+"}")

	rdb.Watch(ctx, func(tx *redis.Tx) error { return nil }, "w:1", "w:2") // want `Watch transaction keys "w:1" \(slot \d+\) and "w:2" \(slot \d+\) are in different slots`

	rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "{acct:"+id+"}:n")
			return nil
		})
		return err
	}, "{acct:"+id+"}:n", "{acct:"+id+"}:m")
}

// The callback held in a variable, as with a shared retry helper.
func heldCallback(rdb *redis.Client, id string) error {
	queue := func(p redis.Pipeliner) error {
		p.Incr(ctx, "visits:"+id)
		p.Incr(ctx, "visits:total") // want `TxPipelined transaction keys "visits:" \+ id and "visits:total" \(slot \d+\) share no hash tag`
		return nil
	}
	_, err := rdb.TxPipelined(ctx, queue)
	return err
}

// Silent: the held callback's keys share a tag.
func heldCallbackTagged(rdb *redis.Client, id string) error {
	queue := func(p redis.Pipeliner) error {
		p.Incr(ctx, "visits:{"+id+"}")
		p.Incr(ctx, "visits:{"+id+"}:day")
		return nil
	}
	_, err := rdb.TxPipelined(ctx, queue)
	return err
}

// A WATCH block whose function is held in a variable.
func heldWatch(rdb *redis.Client, id string) error {
	update := func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "owner:"+id, 1, 0) // want `Watch transaction keys "balance:" \+ id and "owner:" \+ id share no hash tag`
			return nil
		})
		return err
	}
	return rdb.Watch(ctx, update, "balance:"+id)
}

// A transaction that queues one command per key it was given spans as many
// slots as the keys, unless they carry one tag (a cache client's MSet).
func perKey(rdb redis.UniversalClient, keys []string, vals []string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for i := range keys {
			p.Set(ctx, keys[i], vals[i], 0) // want `TxPipelined transaction queues a command per element: keys keys\[i\] and keys\[i\] of another loop iteration share a slot only if every key carries one hash tag`
		}
		return nil
	})
	pipe := rdb.TxPipeline()
	for _, k := range keys {
		pipe.Del(ctx, k) // want `TxPipeline transaction queues a command per element: keys k and k of another loop iteration`
	}
	pipe.Exec(ctx)
	// One key, queued once per value: one slot.
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, v := range vals {
			p.SAdd(ctx, keys[0], v)
		}
		return nil
	})
}

// A plain client talks to one node, which serves every slot.
func perKeyNode(rdb *redis.Client, keys []string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range keys {
			p.Del(ctx, k)
		}
		return nil
	})
}

// Helpers of this package handed the transaction's pipeliner: the keys they
// queue belong to the transaction.
func addVisit(p redis.Pipeliner, page string) {
	p.Incr(ctx, "visits:{"+page+"}")
	p.Expire(ctx, "visits:{"+page+"}", 0)
}

func addTotal(p redis.Pipeliner) { p.Incr(ctx, "visits:total") }

func addDay(p redis.Pipeliner, page, day string) { p.Incr(ctx, "visits:{"+page+"}:"+day) }

func helpers(rdb *redis.ClusterClient, page, day string, pages []string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		addVisit(p, page)
		addTotal(p) // want `TxPipelined transaction keys "visits:\{" \+ page \+ "\}" and "visits:total" \(slot \d+\) share no hash tag`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		addVisit(p, page)
		addDay(p, page, day) // one page's keys: one tag
		return nil
	})
	// The helper called once per page: each call queues another page's key.
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, pg := range pages {
			addVisit(p, pg) // want `TxPipelined transaction keys "visits:\{" \+ pg \+ "\}" and "visits:\{" \+ pg \+ "\}" of another loop iteration share no hash tag`
		}
		return nil
	})
	// A plain pipeline handed to the same helpers is split per node.
	pipe := rdb.Pipeline()
	addVisit(pipe, page)
	addTotal(pipe)
	pipe.Exec(ctx)
}

// The callback is a method: its commands are the transaction's.
type counter struct{ page string }

func (c *counter) queue(p redis.Pipeliner) error {
	p.Incr(ctx, "views:{"+c.page+"}")
	p.Incr(ctx, "views:all")
	return nil
}

func (c *counter) queueTagged(p redis.Pipeliner) error {
	p.Incr(ctx, "views:{"+c.page+"}")
	p.Incr(ctx, "views:{"+c.page+"}:day")
	return nil
}

func namedCallbacks(rdb redis.UniversalClient, c *counter) {
	rdb.TxPipelined(ctx, c.queue) // want `TxPipelined transaction keys "views:\{" \+ c.page \+ "\}" and "views:all" \(slot \d+\) share no hash tag`
	rdb.TxPipelined(ctx, c.queueTagged)
	rdb.Pipelined(ctx, c.queue) // a plain pipeline
}
