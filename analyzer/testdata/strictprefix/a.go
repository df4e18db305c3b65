package strictprefix

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

type store struct {
	rdb    *redis.Client
	prefix string
}

// Under -strict, text of unknown value before the tag is reported once per
// key family: the first use of each shape.
func (s *store) load(id string, shard int) {
	s.rdb.Get(ctx, s.prefix+":{"+id+"}")                              // want `key s.prefix \+ ":\{" \+ id \+ "\}" has text of unknown value \(s.prefix\) before its hash tag`
	s.rdb.Del(ctx, s.prefix+":{"+id+"}")                              // same family: reported above
	s.rdb.Get(ctx, s.prefix+":"+strconv.Itoa(shard)+":{"+id+"}:meta") // want `key s.prefix \+ ":" \+ strconv.Itoa\(shard\) \+ ":\{" \+ id \+ "\}:meta" has text of unknown value \(s.prefix\) before its hash tag`
	s.rdb.Get(ctx, strconv.Itoa(shard)+":{"+id+"}")                   // a number cannot hold a brace
}
