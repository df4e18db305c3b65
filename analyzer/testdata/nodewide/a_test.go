package nodewide

import (
	"testing"

	"github.com/redis/go-redis/v9"
)

// A test empties and lists its own test server between cases.
func TestStore(t *testing.T) {
	var rdb redis.UniversalClient = redis.NewClient(&redis.Options{})
	rdb.FlushDB(ctx)
	rdb.Keys(ctx, "*")
}

// A test that builds a cluster client runs on a cluster.
func TestOnCluster(t *testing.T) {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{})
	rdb.FlushDB(ctx) // want `FLUSHDB has no key: this cluster client`
}
