package braces

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// With -slotlint.braces a value may hold '{' or '}', so a tag after it
// cannot be trusted and literal tags are no longer proof.
func load(rdb *redis.Client, id string) {
	rdb.MGet(ctx, "a:{"+id+"}", "b:{"+id+"}") // want `MGET keys "a:\{" \+ id \+ "\}" and "b:\{" \+ id \+ "\}" share no hash tag`
	rdb.MGet(ctx, "{x}:1", "{x}:2")           // literal keys: still proven
}
