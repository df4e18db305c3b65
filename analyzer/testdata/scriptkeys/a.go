package scriptkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

var incr = redis.NewScript(`return redis.call('INCR', KEYS[1])`)

func scripts(rdb *redis.ClusterClient, id string, keys []string) {
	incr.Run(ctx, rdb, []string{"lock:" + id, "owner:" + id}, "tok") // want `EVALSHA keys "lock:" \+ id and "owner:" \+ id share no hash tag`
	incr.Run(ctx, rdb, []string{"lock:{" + id + "}", "owner:{" + id + "}"}, "tok")
	incr.RunRO(ctx, rdb, []string{"a", "b"})                       // want `EVALSHA_RO keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	incr.Run(ctx, rdb, nil, "user:"+id)                            // want `Script.Run called with zero keys: a cluster client sends it to an arbitrary master`
	incr.Eval(ctx, rdb, []string{}, 1)                             // want `Script.Eval called with zero keys`
	incr.EvalRO(ctx, rdb, []string{"o:" + id, "p:" + id})          // want `EVAL_RO keys "o:" \+ id and "p:" \+ id share no hash tag`
	incr.EvalShaRO(ctx, rdb, []string{"{o}:" + id, "{o}:x:" + id}) // same literal tag
	incr.EvalSha(ctx, rdb, []string{"one"})                        // one key
	incr.Run(ctx, rdb, keys)                                       // unresolved: silent without -strict
	rdb.Eval(ctx, "return 1", []string{"e:1", "e:2"})              // want `EVAL keys "e:1" \(slot \d+\) and "e:2" \(slot \d+\) are in different slots`
	rdb.EvalSha(ctx, "sha", nil)                                   // want `EvalSha called with zero keys`
	rdb.EvalRO(ctx, "return 1", []string{"{e}:1", "{e}:2"})
	rdb.EvalShaRO(ctx, "sha", []string{"r:" + id, "s:" + id}) // want `EVALSHA_RO keys`
	rdb.FCall(ctx, "fn", []string{"f:" + id, "g:" + id})      // want `FCALL keys`
	rdb.FCallRO(ctx, "fn", nil)                               // want `FCallRO called with zero keys`
	rdb.Do(ctx, "EVAL", "return 1", 2, "d:1", "d:2")          // want `EVAL keys "d:1" \(slot \d+\) and "d:2" \(slot \d+\) are in different slots`
	rdb.Do(ctx, "EVALSHA", "sha", 0)                          // want `Do called with zero keys`
	ks := []string{"k:{" + id + "}"}
	ks = append(ks, "k:{"+id+"}:2")
	incr.Run(ctx, rdb, ks)
}

// Zero keys are harmless when the script touches no key: any master runs
// it the same.
var (
	echo   = redis.NewScript(`return ARGV[1]`)
	double = redis.NewScript(`local n = tonumber(ARGV[1]) return n * 2`)
	clock  = redis.NewScript(`return redis.call('TIME')`)
	byArgv = redis.NewScript(`return redis.call('GET', ARGV[1])`)
	called = redis.NewScript(`local f = redis.call return f(ARGV[1], ARGV[2])`)
)

const library = "#!lua name=zk\n" +
	"redis.register_function('ping', function(keys, args) return args[1] end)\n" +
	"redis.register_function('peek', function(keys, args) return redis.call('GET', args[1]) end)\n"

func keyless(rdb *redis.ClusterClient, id string) {
	echo.Run(ctx, rdb, nil, id)
	double.Run(ctx, rdb, nil, 21)
	clock.Run(ctx, rdb, nil)
	rdb.Eval(ctx, "return ARGV[1] .. ARGV[2]", nil, "a", "b")
	byArgv.Run(ctx, rdb, nil, "user:"+id) // want `Script.Run called with zero keys`
	called.Run(ctx, rdb, nil, "GET", id)  // want `Script.Run called with zero keys`
	rdb.FunctionLoad(ctx, library)
	rdb.FCall(ctx, "ping", nil, id)
	rdb.FCall(ctx, "peek", nil, id) // want `FCall called with zero keys`
}
