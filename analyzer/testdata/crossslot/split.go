package crossslot

import (
	"github.com/redis/go-redis/v9"
)

// A cluster client configured to follow the server's request policies
// sends MGET, EXISTS, TOUCH, DEL, UNLINK, MSET and MSETNX once per slot:
// reads across slots are fine, writes lose their atomicity.
func splitLocal(opt *redis.ClusterOptions, id string) {
	rdb := redis.NewClusterClient(opt)
	rdb.SetCommandInfoResolver(rdb.NewDynamicResolver())
	rdb.MGet(ctx, "a:"+id, "b:"+id)
	rdb.Exists(ctx, "a:1", "a:2")
	rdb.Touch(ctx, "a:"+id, "b:"+id)
	rdb.Do(ctx, "MGET", "a:"+id, "b:"+id)
	rdb.Del(ctx, "a:"+id, "b:"+id)                  // want `DEL keys "a:" \+ id and "b:" \+ id share no hash tag: this cluster client follows the server's request policies \(NewDynamicResolver\) and sends one DEL per slot, so no CROSSSLOT, but the write is not atomic`
	rdb.MSet(ctx, "a:1", 1, "a:2", 2)               // want `MSET keys "a:1" \(slot \d+\) and "a:2" \(slot \d+\) are in different slots: this cluster client .* sends one MSET per slot`
	rdb.Del(ctx, "a:{"+id+"}", "b:{"+id+"}")        // one slot: atomic
	rdb.SInterStore(ctx, "d:"+id, "a:"+id, "b:"+id) // want `SINTERSTORE keys .* share no hash tag \(CROSSSLOT risk on a cluster\)`
	// A transaction is not split.
	pipe := rdb.TxPipeline()
	pipe.MGet(ctx, "a:"+id, "b:"+id) // want `MGET keys .* \(CROSSSLOT risk on a cluster\)`
	pipe.Exec(ctx)
}

// The configured client stored in a field.
type splitStore struct{ rdb *redis.ClusterClient }

func newSplitStore(opt *redis.ClusterOptions) *splitStore {
	rdb := redis.NewClusterClient(opt)
	rdb.SetCommandInfoResolver(rdb.NewDynamicResolver())
	return &splitStore{rdb: rdb}
}

func (s *splitStore) load(id string) {
	s.rdb.MGet(ctx, "a:"+id, "b:"+id)
	s.rdb.Unlink(ctx, "a:"+id, "b:"+id) // want `UNLINK keys .* sends one UNLINK per slot, so no CROSSSLOT, but the write is not atomic`
}

// Not configured: the default resolver does not split MGET or DEL, and
// Redis answers CROSSSLOT.
func notSplit(cc *redis.ClusterClient, id string) {
	cc.SetCommandInfoResolver(redis.NewDefaultCommandPolicyResolver())
	cc.MGet(ctx, "a:"+id, "b:"+id) // want `MGET keys "a:" \+ id and "b:" \+ id share no hash tag \(CROSSSLOT risk on a cluster\)`
	cc.Del(ctx, "a:"+id, "b:"+id)  // want `DEL keys .* \(CROSSSLOT risk on a cluster\)`
}
