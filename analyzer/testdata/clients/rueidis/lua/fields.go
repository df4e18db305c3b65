package lua

import (
	"context"
	_ "embed"

	"github.com/redis/rueidis"
)

// claimSrc pops a job and marks it with its owner: the job's key is built
// in Lua from a prefix passed in ARGV.
//
//go:embed lua/claim.lua
var claimSrc string

// A queue holds a script made from embedded text in a field set once in
// its constructor.
type queue struct {
	c     rueidis.Client
	claim *rueidis.Lua
	peek  *rueidis.Lua
}

func newQueue(c rueidis.Client) *queue {
	q := &queue{c: c, peek: rueidis.NewLuaScriptReadOnly(`return redis.call("LINDEX", KEYS[1], 0)`)}
	q.claim = rueidis.NewLuaScript(claimSrc)
	return q
}

func (q *queue) fields(ctx context.Context, name, owner string) {
	q.claim.Exec(ctx, q.c, []string{"q:{" + name + "}:ready"}, []string{"q:{" + name + "}:job:", owner})
	q.claim.Exec(ctx, q.c, []string{"q:{" + name + "}:ready"}, []string{"q:" + name + ":job:", owner}) // want `script HSET key ARGV\[1\] \.\. a reply of LPOP \(lua/claim.lua:3\) is "q:" \+ name \+ ":job:" \+ .* with this call's ARGV\[1\] = "q:" \+ name \+ ":job:", KEYS\[1\] = .*: it shares no hash tag with KEYS\[1\]`
	q.peek.Exec(ctx, q.c, []string{"q:{" + name + "}:ready", "q:{" + name + "}:done"}, nil)            // want `Lua.Exec passes 2 keys but the script never reads KEYS\[2\]`
}
