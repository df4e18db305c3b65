package luascript

import "github.com/redis/go-redis/v9"

// A store holds its scripts in fields set once in its constructor.
type store struct {
	rdb    *redis.ClusterClient
	claim  *redis.Script
	touch  *redis.Script
	src    string
	shared *redis.Script
}

// claimSrc moves a job to its owner's list: both keys come from KEYS.
const claimSrc = `local id = redis.call("LPOP", KEYS[1])
if id then redis.call("RPUSH", KEYS[2], id) end
return id`

func newStore(rdb *redis.ClusterClient) *store {
	s := &store{rdb: rdb, src: "return redis.call('INCR', KEYS[1]) + redis.call('INCR', KEYS[2])"}
	s.claim = redis.NewScript(claimSrc)
	s.touch = redis.NewScript(`return redis.call("SET", "last:touch", ARGV[1])`) // a literal key
	return s
}

func newSharedStore() *store {
	return &store{shared: redis.NewScript(`return redis.call("GET", KEYS[1] .. ":v")`)}
}

func (s *store) fieldCalls(id string) {
	s.claim.Run(ctx, s.rdb, []string{"jobs:{" + id + "}", "owned:{" + id + "}"})
	s.claim.Run(ctx, s.rdb, []string{"jobs:{" + id + "}"})     // want `Script.Run passes 1 key but the script reads KEYS\[2\] \(Lua line 2\): it is nil there`
	s.touch.Run(ctx, s.rdb, []string{"t:{" + id + "}"}, "now") // want `passes 1 key but the script never reads KEYS\[1\]` `SET key "last:touch" \(slot \d+\) is a literal, not passed in KEYS.*here KEYS\[1\] is "t:\{" \+ id \+ "\}"`
	s.rdb.Eval(ctx, s.src, []string{"a:{" + id + "}", "b:{" + id + "}"})
	s.rdb.Eval(ctx, s.src, []string{"a:{" + id + "}"}) // want `Eval passes 1 key but the script reads KEYS\[2\] \(Lua line 1\)`
	s.shared.Run(ctx, s.rdb, []string{"v:" + id})      // want `script GET key KEYS\[1\] \.\. ":v" \(Lua line 1\) is "v:" \+ id \+ ":v" with this call's KEYS\[1\] = "v:" \+ id: it shares no hash tag with KEYS\[1\]`
	s.shared.Run(ctx, s.rdb, []string{"v:{" + id + "}"})
}

// A field given two different scripts is not followed: which one runs is
// not known here.
type either struct{ run *redis.Script }

func newEither(fast bool) *either {
	if fast {
		return &either{run: redis.NewScript(`return redis.call("GET", KEYS[1])`)}
	}
	return &either{run: redis.NewScript(`return redis.call("GET", KEYS[1]) .. redis.call("GET", KEYS[2])`)}
}

func (e *either) call(rdb *redis.ClusterClient, id string) {
	e.run.Run(ctx, rdb, []string{"{" + id + "}"})
}
