// Package bracedprefix holds keys whose prefix is configuration: quiet by
// default, reported once per key family where the code visibly gives the
// prefix a brace, which moves the key's hash tag.
package bracedprefix

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

type store struct {
	rdb    *redis.Client
	prefix string
}

type option func(*store)

// WithPrefix sets the prefix of every key.
func WithPrefix(p string) option { return func(s *store) { s.prefix = p } }

func newStore(rdb *redis.Client, opts ...option) *store {
	s := &store{rdb: rdb, prefix: "sess:"}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *store) load(id string) {
	s.rdb.Get(ctx, s.prefix+":{"+id+"}")            // want `key s.prefix \+ ":\{" \+ id \+ "\}" has s.prefix before its hash tag, which is given "\{tenant\}:" at a.go:\d+: its brace moves the tag`
	s.rdb.Del(ctx, s.prefix+":{"+id+"}")            // same family: reported above
	s.rdb.HGet(ctx, s.prefix+":{"+id+"}:meta", "f") // want `key s.prefix \+ ":\{" \+ id \+ "\}:meta" has s.prefix before its hash tag`
}

func open(rdb *redis.Client) *store {
	return newStore(rdb, WithPrefix("{tenant}:"))
}

// A prefix handed to a function of this package as a parameter.
func count(rdb *redis.Client, ns, id string) {
	rdb.Incr(ctx, ns+"hits:{"+id+"}") // want `key ns \+ "hits:\{" \+ id \+ "\}" has ns before its hash tag, which is given "app\{1\}:" at a.go:\d+: its brace moves the tag`
}

func countAll(rdb *redis.Client, id string) {
	count(rdb, "app{1}:", id)
}

// A package variable set to a braced value.
var keyspace = "ks:"

func init() { keyspace = "{ks}:" }

func seen(rdb *redis.Client, id string) {
	rdb.SetNX(ctx, keyspace+"seen:{"+id+"}", 1, 0) // want `key keyspace \+ "seen:\{" \+ id \+ "\}" has keyspace before its hash tag, which is given "\{ks\}:"`
}

// Quiet: every prefix the code shows is brace-free, and one from outside
// is unknown (reported only under -strict).
type cache struct {
	rdb  *redis.Client
	name string
}

func newCache(rdb *redis.Client, name string) *cache { return &cache{rdb: rdb, name: name} }

func (c *cache) get(id string) {
	c.rdb.Get(ctx, c.name+":{"+id+"}")
}

func caches(rdb *redis.Client, fromConfig string) {
	newCache(rdb, "users").get("1")
	newCache(rdb, fromConfig).get("2")
}

func external(rdb *redis.Client, prefix, id string) {
	rdb.Get(ctx, prefix+"x:{"+id+"}")
}
