// Package scripts runs Lua scripts through rueidis.
package scripts

import (
	"context"

	"github.com/redis/rueidis"
)

const incrSrc = `return redis.call("INCR", KEYS[1]) + redis.call("INCR", KEYS[2])`

var incr = rueidis.NewLuaScript(incrSrc)

func exec(ctx context.Context, c rueidis.Client, id string) {
	incr.Exec(ctx, c, []string{"lock:" + id, "owner:" + id}, nil) // want `EVAL keys "lock:" \+ id and "owner:" \+ id share no hash tag`
	incr.Exec(ctx, c, []string{"{" + id + "}:lock", "{" + id + "}:owner"}, nil)
	incr.Exec(ctx, c, nil, []string{id})                                                                                 // want `Lua.Exec called with zero keys: a cluster client sends it to an arbitrary master`
	incr.ExecMulti(ctx, c, rueidis.LuaExec{Keys: []string{"{a}:1", "{a}:2"}}, rueidis.LuaExec{Keys: []string{"a", "b"}}) // want `EVAL keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
}

// EVAL built by hand.
func builder(ctx context.Context, c rueidis.Client, id string) {
	c.Do(ctx, c.B().Eval().Script(incrSrc).Numkeys(2).Key("p:"+id, "q:"+id).Build()) // want `EVAL keys "p:" \+ id and "q:" \+ id share no hash tag`
	c.Do(ctx, c.B().Eval().Script(incrSrc).Numkeys(2).Key("{"+id+"}:p", "{"+id+"}:q").Build())
	c.Do(ctx, c.B().Fcall().Function("f").Numkeys(0).Build()) // want `B\(\).Fcall\(\) called with zero keys`
	c.Do(ctx, c.B().EvalshaRo().Sha1("0123").Numkeys(2).Key("{t}:1", "{t}:2").Arg("x").Build())
}
