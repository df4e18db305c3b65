// Package scripts runs Lua scripts through valkey-go.
package scripts

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

var incr = valkey.NewLuaScript(`return redis.call("INCR", KEYS[1]) + redis.call("INCR", KEYS[2])`)

func exec(ctx context.Context, c valkey.Client, id string) {
	incr.Exec(ctx, c, []string{"lock:" + id, "owner:" + id}, nil) // want `EVAL keys "lock:" \+ id and "owner:" \+ id share no hash tag`
	incr.Exec(ctx, c, []string{"{" + id + "}:lock", "{" + id + "}:owner"}, nil)
	incr.Exec(ctx, c, nil, nil) // want `Lua.Exec called with zero keys`
}
