package queue // want package:`clients\(github.com/redis/go-redis/v9\)`

// The package queues its commands on the pipeliner its caller hands it (a
// package doc comment would move the package fact's position off this line).

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// Push queues the job and its counter, both of one queue's tag.
func Push(p redis.Pipeliner, queue, id string) { // want Push:`queues\(param 0: LPUSH "q:\{" \+ queue \+ "\}:jobs"; param 0: INCR "q:\{" \+ queue \+ "\}:n"\)`
	p.LPush(ctx, "q:{"+queue+"}:jobs", id)
	p.Incr(ctx, "q:{"+queue+"}:n")
}

// Count queues the global counter.
func Count(p redis.Pipeliner) { // want Count:`queues\(param 0: INCR "jobs:total"\)`
	p.Incr(ctx, "jobs:total")
}

// Touch goes through Count: a summary built from another.
func Touch(p redis.Pipeliner, queue string) { // want Touch:`queues\(param 0: EXPIRE "q:\{" \+ queue \+ "\}:n"; param 0: INCR "jobs:total"\)`
	p.Expire(ctx, "q:{"+queue+"}:n", 0)
	Count(p)
}

// DelAll deletes every key it is given, one command per key.
func DelAll(p redis.Pipeliner, keys []string) { // want DelAll:`queues\(param 0: DEL k per iteration\)`
	for _, k := range keys {
		p.Del(ctx, k)
	}
}

// Store holds a prefix; its methods queue keys built from it.
type Store struct{ prefix string }

// Save queues the item and its index under the receiver's prefix.
func (s *Store) Save(p redis.Pipeliner, id string) { // want Save:`queues\(param 0: SET s.prefix \+ ":item:" \+ id; param 0: SADD s.prefix \+ ":index"\)`
	p.Set(ctx, s.prefix+":item:"+id, 1, 0)
	p.SAdd(ctx, s.prefix+":index", id)
}

// Plain sends nothing on a parameter: no fact.
func Plain(rdb *redis.Client, id string) {
	rdb.Get(ctx, "plain:"+id)
}
