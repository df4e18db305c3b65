// Package scriptuse runs scripts that another package holds in its
// variables: each call is checked against the script's text.
package scriptuse

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/slt/scriptlib"
)

var ctx = context.Background()

func touch(rdb *redis.ClusterClient, id string) {
	scriptlib.Touch.Run(ctx, rdb, []string{"t:{" + id + "}"}, "now")
	scriptlib.Touch.Run(ctx, rdb, []string{"t:" + id}, "now") // want `script SET key KEYS\[1\] \.\. ":touched" \(scriptlib.Touch, Lua line 1\) is "t:" \+ id \+ ":touched" with this call's KEYS\[1\] = "t:" \+ id: it shares no hash tag with KEYS\[1\]`
}

// A slice expression's length is not known: the call is judged as the
// script alone.
func move(rdb *redis.ClusterClient, q string) {
	keys := []string{"q:{" + q + "}:ready", "q:{" + q + "}:busy"}
	scriptlib.Move.Run(ctx, rdb, keys, "q:{"+q+"}:job:")
	scriptlib.Move.Run(ctx, rdb, keys, "q:"+q+":job:")                     // want `script HSET key ARGV\[1\] \.\. a reply of LPOP \(scriptlib.Move, Lua line 4\) is "q:" \+ q \+ ":job:" \+ .*: it shares no hash tag with KEYS\[1\]`
	scriptlib.Move.Run(ctx, rdb, keys[:1], "q:{"+q+"}:job:")               // want `^scriptlib.Move, Lua line 4: HSET key ARGV\[1\] \.\. a reply of LPOP comes from ARGV, not KEYS`
	scriptlib.Move.Run(ctx, rdb, []string{"q:{" + q + "}:ready"})          // want `Script.Run passes 1 key but the script reads KEYS\[2\] \(scriptlib.Move, Lua line 3\): it is nil there` `comes from ARGV, not KEYS: .* \(scriptlib.Move, Lua line 4\); here KEYS\[1\] is "q:\{" \+ q \+ "\}:ready"`
	redis.NewScript(scriptlib.MoveSrc).Run(ctx, rdb, keys, "q:"+q+":job:") // want `is "q:" \+ q \+ ":job:" \+ .*: it shares no hash tag with KEYS\[1\]`
	rdb.Eval(ctx, scriptlib.MoveSrc, keys, "q:{"+q+"}:job:")
}

func several(rdb *redis.ClusterClient, id string) {
	scriptlib.Several.Run(ctx, rdb, []string{"{" + id + "}"})
}
