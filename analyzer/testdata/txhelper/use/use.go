package use

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/slt/txhelper/queue"
)

var ctx = context.Background()

// A helper of another package queues keys of another slot in the
// transaction: its summary comes as a fact.
func pushCounted(rdb *redis.ClusterClient, name, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queue.Push(p, name, id)
		queue.Count(p) // want `TxPipelined transaction keys "q:\{" \+ name \+ "\}:jobs" and "jobs:total" \(slot \d+\) share no hash tag`
		return nil
	})
}

// Quiet: the helper's keys share the queue's tag with the caller's.
func pushTagged(rdb *redis.ClusterClient, name, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queue.Push(p, name, id)
		p.Expire(ctx, "q:{"+name+"}:jobs", 0)
		return nil
	})
}

// Through two helpers, with a TxPipeline value.
func touch(rdb redis.UniversalClient, name string) {
	pipe := rdb.TxPipeline()
	queue.Touch(pipe, name) // want `TxPipeline transaction keys "q:\{" \+ name \+ "\}:n" and "jobs:total" \(slot \d+\) share no hash tag`
	pipe.Exec(ctx)
}

// The same helper outside a transaction: a plain pipeline is split per
// node, nothing to report.
func plain(rdb redis.UniversalClient, name string) {
	pipe := rdb.Pipeline()
	queue.Touch(pipe, name)
	pipe.Exec(ctx)
}

// A helper queuing one command per key it is given.
func delAll(rdb redis.UniversalClient, keys []string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queue.DelAll(p, keys) // want `TxPipelined transaction queues a command per element: keys k and k of another loop iteration`
		return nil
	})
}

// Methods bind the receiver: two ids under one prefix are two slots.
func save(rdb *redis.ClusterClient, s *queue.Store, a, b string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		s.Save(p, a) // want `TxPipelined transaction keys s.prefix \+ ":item:" \+ a and s.prefix \+ ":index" share no hash tag`
		return nil
	})
}
