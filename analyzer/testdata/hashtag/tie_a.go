package hashtag

import "github.com/redis/go-redis/v9"

// One spelling per file, one use each: on a tie the use first in file
// order (tie_a.go before tie_b.go) is taken as intended, whatever order
// the files were parsed in.
func tieUntagged(rdb *redis.Client, id string) {
	rdb.Get(ctx, "tie:"+id+":seen")
}
