package nodewide

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// Listing and emptying a keyspace through a cluster client reaches one
// master.
func cluster(rdb *redis.ClusterClient, lib string) {
	rdb.Keys(ctx, "session:*") // want `KEYS has no key: this cluster client sends it to one master it picks, and it returns the keys of that master only`
	var cursor uint64
	for {
		keys, next, err := rdb.Scan(ctx, cursor, "session:*", 100).Result() // want `SCAN has no key: this cluster client sends it to one master it picks, and it walks the keys of that master only`
		if err != nil || next == 0 {
			_ = keys
			break
		}
		cursor = next
	}
	rdb.ScanType(ctx, 0, "*", 10, "hash")              // want `SCAN has no key`
	rdb.FlushDB(ctx)                                   // want `FLUSHDB has no key: this cluster client sends it to one master it picks, and it empties that master only`
	rdb.FlushAllAsync(ctx)                             // want `FLUSHALL has no key`
	rdb.FunctionLoadReplace(ctx, lib)                  // want `FUNCTION LOAD has no key: .* FCALL fails with "Function not found" for keys of the others`
	rdb.Do(ctx, "KEYS", "*")                           // want `KEYS has no key`
	rdb.FunctionDelete(ctx, "mylib")                   // want `FUNCTION DELETE has no key: .* the others keep serving its functions`
	rdb.FunctionFlush(ctx)                             // want `FUNCTION FLUSH has no key`
	rdb.ConfigSet(ctx, "notify-keyspace-events", "Ex") // want `CONFIG SET has no key: .* sets the parameter on that master only`
	rdb.ConfigGet(ctx, "maxmemory")                    // reads one master's: not a change
	rdb.DBSize(ctx)                                    // the cluster client sums every master's
	rdb.ScriptLoad(ctx, "return 1")                    // loaded on every master
	rdb.Get(ctx, "session:1")                          // a key: routed by its slot
	rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.FlushDB(ctx).Err() // a master's own client
	})
}

// A UniversalClient is a cluster client when given several addresses.
func universal(rdb redis.UniversalClient) {
	rdb.Keys(ctx, "*") // want `KEYS has no key: this client, when it is a cluster client, sends it to one master it picks`
	//slotlint:ignore SL1006 the development tool runs against a single server only
	rdb.FlushDB(ctx)
}

// A plain Client talks to one server: the command means what it says.
func single(rdb *redis.Client, cmd *redis.StringCmd) {
	rdb.Keys(ctx, "*")
	rdb.FlushAll(ctx)
	var v string
	cmd.Scan(&v) // a reply's Scan, not the command
}

// Following the server's request policies, the cluster client sends
// FLUSHDB and FLUSHALL to every master; KEYS, SCAN and FUNCTION LOAD still
// reach one.
func policies(addrs []string) {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	rdb.SetCommandInfoResolver(rdb.NewDynamicResolver())
	rdb.FlushDB(ctx)
	rdb.FlushAll(ctx)
	rdb.Keys(ctx, "*")                      // want `KEYS has no key`
	rdb.Scan(ctx, 0, "*", 100)              // want `SCAN has no key`
	rdb.FunctionLoad(ctx, "#!lua name=x\n") // want `FUNCTION LOAD has no key`
}

// NewUniversalClient makes a plain client of one address unless told it
// is a cluster: options written in place say which.
func built(addrs []string) {
	one := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:6379"}, DB: 0})
	one.FlushAll(ctx)
	failover := redis.NewUniversalClient(&redis.UniversalOptions{MasterName: "mymaster", Addrs: []string{"s1:26379", "s2:26379"}})
	failover.Keys(ctx, "*")
	forced := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:7000"}, IsClusterMode: true})
	forced.FlushAll(ctx) // want `FLUSHALL has no key: this cluster client sends it`
	several := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:7000", "b:7000"}})
	several.Keys(ctx, "*") // want `KEYS has no key: this cluster client`
	configured := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs})
	configured.Keys(ctx, "*") // want `KEYS has no key: this client, when it is a cluster client,`
}

// node is an interface of the application's own that a ClusterClient
// satisfies, as a wrapper library's is.
type node interface {
	redis.Cmdable
}

func wrapped(n node, c redis.Cmdable, p redis.Pipeliner) {
	n.Keys(ctx, "*") // want `KEYS has no key: this client, when it is a cluster client,`
	c.FlushDB(ctx)   // want `FLUSHDB has no key: this client, when it is a cluster client,`
	p.Keys(ctx, "*") // a pipeline: its commands go where its client sends them
}

// A Ring shards keys in the client: a command with no key goes to one
// shard it picks.
func ring(rdb *redis.Ring, lib string) {
	rdb.Keys(ctx, "session:*")                         // want `KEYS has no key: this Ring sends it to one shard it picks, and it returns the keys of that shard only \(run it on each shard with ForEachShard\)$`
	rdb.Scan(ctx, 0, "session:*", 100)                 // want `SCAN has no key: this Ring sends it to one shard it picks, and it walks the keys of that shard only, with that shard's cursor`
	rdb.FlushDB(ctx)                                   // want `FLUSHDB has no key: this Ring sends it to one shard it picks, and it empties that shard only`
	rdb.FunctionLoad(ctx, lib)                         // want `FUNCTION LOAD has no key: this Ring .* for keys of the others`
	rdb.ConfigSet(ctx, "notify-keyspace-events", "Ex") // want `CONFIG SET has no key: this Ring sends it to one shard it picks, and it sets the parameter on that shard only: the other shards keep their own value`
	rdb.DBSize(ctx)                                    // want `DBSIZE has no key: this Ring sends it to one shard it picks, and it counts the keys of that shard only`
	rdb.Get(ctx, "session:1")                          // a key: routed by its hash
	rdb.ForEachShard(ctx, func(ctx context.Context, s *redis.Client) error {
		return s.FlushDB(ctx).Err() // a shard's own client
	})
}

// A Ring of one server routes like a plain client.
func oneShardRing() {
	rdb := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"only": ":6379"}})
	rdb.FlushDB(ctx)
	rdb.Keys(ctx, "*")
}
