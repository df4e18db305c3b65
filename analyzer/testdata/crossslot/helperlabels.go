package crossslot

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/redis/go-redis/v9"
)

// A rate limiter in the image of a sliding-window counter: the window's
// key is built by a method from the window's start, hashed with the
// client's key. The message names each key by the call's own arguments,
// so the two keys do not read alike.
type windowCounter struct {
	rdb    *redis.Client
	prefix string
}

func windowHash(key string, window time.Time) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	h.Write([]byte(fmt.Sprint(window.Unix())))
	return h.Sum64()
}

func (c *windowCounter) windowKey(key string, window time.Time) string {
	return fmt.Sprintf("%s:%d", c.prefix, windowHash(key, window))
}

func (c *windowCounter) get(ctx context.Context, key string, current, previous time.Time) {
	c.rdb.MGet(ctx, c.windowKey(key, current), c.windowKey(key, previous)) // want `MGET keys c.prefix \+ ":" \+ windowHash\(key, current\) and c.prefix \+ ":" \+ windowHash\(key, previous\) share no hash tag`
}

// A parameter's name after a dot is a field's and stays; an argument
// that is not one operand keeps its meaning in parentheses.
var shards = struct{ name string }{"orders"}

func shardOf(s string, n int) int { return len(s) * n }

func shardKey(name string, n int) string {
	return fmt.Sprintf("shard:%d", shardOf(shards.name+name, n*2))
}

func shardPair(ctx context.Context, rdb *redis.Client, a string, n int) {
	rdb.MGet(ctx, shardKey(a, n), shardKey(a, n+1)) // want `MGET keys "shard:" \+ shardOf\(shards.name \+ a, n \* 2\) and "shard:" \+ shardOf\(shards.name \+ a, \(n \+ 1\) \* 2\) share no hash tag`
}

// A field set once from a constructor's parameter prints as the field the
// method reads, not as the constructor's expression behind the receiver.
type counterConfig struct{ Prefix string }

type cfgCounter struct {
	rdb       *redis.Client
	prefixKey string
}

func newCfgCounter(rdb *redis.Client, cfg counterConfig) *cfgCounter {
	return &cfgCounter{rdb: rdb, prefixKey: cfg.Prefix}
}

func (c *cfgCounter) get(ctx context.Context, key string) {
	c.rdb.MGet(ctx, c.prefixKey+":a:"+key, c.prefixKey+":b:"+key) // want `MGET keys c.prefixKey \+ ":a:" \+ key and c.prefixKey \+ ":b:" \+ key share no hash tag`
}
