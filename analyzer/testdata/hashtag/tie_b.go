package hashtag

import "github.com/redis/go-redis/v9"

func tieTagged(rdb *redis.Client, id string) {
	rdb.Get(ctx, "tie:{"+id+"}:seen") // want `key family "tie:\*:seen" is used with hash tag \{\*\} here and without a hash tag at tie_a.go:9`
}
