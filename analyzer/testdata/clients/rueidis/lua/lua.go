// Package lua runs Lua scripts through rueidis whose keys the Lua checker
// binds to each call's keys.
package lua

import (
	"context"

	"github.com/redis/rueidis"
)

// The script's own key is derived from KEYS[1]: the Lua checker binds it
// to this call's keys.
var lock = rueidis.NewLuaScript(`return redis.call("SET", KEYS[1] .. ":lock", ARGV[1])`)

func derived(ctx context.Context, c rueidis.Client, id string) {
	lock.Exec(ctx, c, []string{"job:" + id}, []string{"owner"}) // want `script SET key KEYS\[1\] \.\. ":lock" \(Lua line 1\) is "job:" \+ id \+ ":lock" with this call's KEYS\[1\] = "job:" \+ id: it shares no hash tag with KEYS\[1\]`
	lock.Exec(ctx, c, []string{"job:{" + id + "}"}, []string{"owner"})
}

func unusedKey(ctx context.Context, c rueidis.Client, id string) {
	get := rueidis.NewLuaScriptReadOnly(`return redis.call("GET", KEYS[1])`)
	get.Exec(ctx, c, []string{"{" + id + "}:x", "{" + id + "}:y"}, nil) // want `Lua.Exec passes 2 keys but the script never reads KEYS\[2\]`
}

// ARGV is bound to the call's args slice.
const counterSrc = `redis.call("INCR", KEYS[1])
return redis.call("INCR", ARGV[1] .. ":total")`

var counter = rueidis.NewLuaScript(counterSrc)

func argv(ctx context.Context, c rueidis.Client, id string) {
	counter.Exec(ctx, c, []string{"stats:{" + id + "}:hits"}, []string{"stats:" + id}) // want `script INCR key ARGV\[1\] \.\. ":total" \(Lua line 2\) is "stats:" \+ id \+ ":total" with this call's ARGV\[1\] = "stats:" \+ id, KEYS\[1\] = "stats:\{" \+ id \+ "\}:hits": it shares no hash tag with KEYS\[1\]`
	counter.Exec(ctx, c, []string{"stats:{" + id + "}:hits"}, []string{"stats:{" + id + "}"})
	c.Do(ctx, c.B().Eval().Script(counterSrc).Numkeys(1).Key("s:{"+id+"}").Arg("t:"+id).Build()) // want `with this call's ARGV\[1\] = "t:" \+ id`
}

// Scripts are checked where they are made, run or not, as go-redis's and
// redigo's are.
var unused = rueidis.NewLuaScript(`return redis.call('DEL', KEYS[1]`) // want `syntax error at the end of the script`

func notRun() *rueidis.Lua {
	return rueidis.NewLuaScriptReadOnlyNoSha(`print('x') return redis.call('GET', KEYS[1])`) // want `global print does not exist`
}
