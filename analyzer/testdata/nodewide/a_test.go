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

// A test that builds a Ring runs on its shards.
func TestOnRing(t *testing.T) {
	rdb := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": ":6379", "b": ":6380"}})
	rdb.FlushDB(ctx) // want `FLUSHDB has no key: this Ring sends it to one shard it picks`
}

// A Ring of one server routes like a plain client; a Ring whose servers
// the test does not show is, as tests are set up, its test server's.
func TestOnOneShardRing(t *testing.T) {
	one := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"0": ":6379"}})
	one.FlushDB(ctx)
	testRing.FlushDB(ctx)
}

var testRing *redis.Ring
