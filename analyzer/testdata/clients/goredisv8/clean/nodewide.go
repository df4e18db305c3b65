package clean

import "github.com/go-redis/redis/v8"

// SL1006 reads go-redis v9 only: v8.11.5 cannot read a Redis 7 cluster's
// CLUSTER SLOTS reply, so its routing of keyless commands is not checked.
func keyspace(rdb *redis.ClusterClient, u redis.UniversalClient) {
	rdb.Keys(ctx, "*")
	rdb.FlushDB(ctx)
	u.Scan(ctx, 0, "*", 10)
}
