package hashtag

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

func tags(rdb *redis.Client, id, prefix string, shard int) {
	rdb.Get(ctx, "{cart}:"+id)                                   // want `key "\{cart\}:" \+ id has the constant hash tag \{cart\}: every key of the family is in slot 15997 \(hot shard\)`
	rdb.Get(ctx, "basket:{"+id+"}")                              // fine
	rdb.Get(ctx, "{config}")                                     // a single literal key: not a family
	rdb.Get(ctx, "user:{}"+id)                                   // want `key "user:\{\}" \+ id has an empty hash tag \{\}: Redis ignores it and hashes the whole key`
	rdb.Get(ctx, "{user:"+id+"}:{cart}")                         // want `key "\{user:" \+ id \+ "\}:\{cart\}" has a second hash tag that Redis ignores`
	rdb.Get(ctx, strconv.Itoa(shard)+":{"+id+"}")                // a number cannot hold a brace
	rdb.Get(ctx, fmt.Sprintf("%d:%x:{%s}", shard, shard, id))    // nor can %d or %x
	rdb.Get(ctx, hex.EncodeToString([]byte(prefix))+":{"+id+"}") // nor hex
	rdb.Get(ctx, prefix+":"+strconv.Itoa(shard)+":{"+id+"}")     // a configurable prefix: only under -strict (see ../strictprefix)
	rdb.Get(ctx, prefix+":{"+id+"}")                             // likewise
	rdb.Get(ctx, "member:{"+id+":cart")                          // want `key "member:\{" \+ id \+ ":cart" opens a hash tag with '\{' but never closes it`
	rdb.HSet(ctx, fmt.Sprintf("{sessions}:%s", id), "f", "v")    // want `constant hash tag \{sessions\}`
	//slotlint:ignore SL1101 a handful of keys, one slot on purpose
	rdb.Get(ctx, "{flags}:"+id)
	rdb.Set(ctx, "plain:"+id, 1, 0) // no tag at all: fine
}

func families(rdb *redis.Client, id string) {
	rdb.Set(ctx, "profile:{"+id+"}:name", "n", 0)
	rdb.Get(ctx, "profile:{"+id+"}:name")
	rdb.Del(ctx, "profile:"+id+":name") // want `key family "profile:\*:name" is used without a hash tag here and with hash tag \{\*\} at a.go:33`
	rdb.Get(ctx, "order:{"+id+"}")
	rdb.Get(ctx, "order:{"+id+"}")
	rdb.Get(ctx, "{order:"+id+"}") // want `key family "order:\*" is used with hash tag \{order:\*\} here and with hash tag \{\*\} at a.go:36`
}
