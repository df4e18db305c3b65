// Package crossslot holds go-redis v8 multi-key commands, read with the
// same method table as v9.
package crossslot

import (
	"context"
	"fmt"

	"github.com/go-redis/redis/v8"
)

var ctx = context.Background()

func literals(rdb *redis.Client) {
	rdb.MGet(ctx, "user:1", "user:2")              // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	rdb.Rename(ctx, "a", "b")                      // want `RENAME keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	rdb.Do(ctx, "MGET", "user:1", "user:2")        // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	rdb.MGet(ctx, "{user}:1", "{user}:2")          // one tag
	rdb.Do(ctx, "MGET", "cart:{42}", "order:{42}") // one tag
}

func holes(rdb redis.UniversalClient, id string) {
	rdb.MGet(ctx, "user:"+id, "order:"+id)                                           // want `MGET keys "user:" \+ id and "order:" \+ id share no hash tag`
	rdb.Del(ctx, fmt.Sprintf("x:%s", id), fmt.Sprintf("y:%s", id))                   // want `DEL keys "x:" \+ id and "y:" \+ id share no hash tag`
	rdb.MSet(ctx, "m1:"+id, 1, "m2:"+id, 2)                                          // want `MSET keys "m1:" \+ id and "m2:" \+ id share no hash tag`
	rdb.ZInterStore(ctx, "out:"+id, &redis.ZStore{Keys: []string{"z:{" + id + "}"}}) // want `ZINTERSTORE keys "out:" \+ id and "z:\{" \+ id \+ "\}" share no hash tag`
	rdb.SInterStore(ctx, "dst:{"+id+"}", "a:{"+id+"}", "b:{"+id+"}")
}

func cluster(rdb *redis.ClusterClient, id string) {
	var keys []string
	for _, part := range []string{"a", "b"} {
		keys = append(keys, "item:"+id+":"+part)
	}
	rdb.MGet(ctx, keys...) // want `MGET keys "item:" \+ id \+ ":" \+ part and "item:" \+ id \+ ":" \+ part of another loop iteration share no hash tag`
}
