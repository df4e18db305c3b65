// Package lua holds valkey-go scripts checked by the Lua checker, run or
// not.
package lua

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

var get = valkey.NewLuaScriptReadOnly(`return redis.call("GET", KEYS[1])`)

func run(ctx context.Context, c valkey.Client, id string) {
	get.Exec(ctx, c, []string{"{" + id + "}:x", "{" + id + "}:y"}, nil) // want `Lua.Exec passes 2 keys but the script never reads KEYS\[2\]`
}

// Checked though never run.
var unused = valkey.NewLuaScript(`return redis.call('DEL', KEYS[1]`) // want `syntax error at the end of the script`

func notRun() *valkey.Lua {
	return valkey.NewLuaScriptRetryable(`print('x') return redis.call('GET', KEYS[1])`) // want `global print does not exist`
}
