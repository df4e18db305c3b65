package luascript

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/redis/go-redis/v9"
)

// Scripts read through a loader function: the loader is followed with
// each call's arguments, so every script it makes is checked.

// want +2 `^lua/global.lua:1:1: assignment to global variable count`
//
//go:embed lua/*.lua
var loaderFS embed.FS

func loadScript(name string) *redis.Script {
	src, err := loaderFS.ReadFile("lua/" + name)
	if err != nil {
		panic(err)
	}
	return redis.NewScript(string(src))
}

// luaText reads through io/fs and returns the text, not the script.
func luaText(name string) string {
	b, err := fs.ReadFile(loaderFS, "lua/"+name+".lua")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// loadLua returns the text or an error, the name made by fmt.Sprintf.
func loadLua(name string) (string, error) {
	content, err := loaderFS.ReadFile(fmt.Sprintf("lua/%s.lua", name))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	return string(content), nil
}

var enqueueCmd *redis.Script

func init() {
	text, err := loadLua("fs")
	if err != nil {
		panic(err)
	}
	enqueueCmd = redis.NewScript(text)
}

var (
	counterScript = loadScript("fs.lua")
	derivedScript = loadScript("derived.lua")
	globalScript  = redis.NewScript(luaText("global"))
)

// pick returns one of two scripts: which one runs is not known, so it is
// not followed.
func pick(first bool) *redis.Script {
	if first {
		return loadScript("fs.lua")
	}
	return loadScript("clean.lua")
}

// renamed assigns its parameter: the name read is not the argument.
func renamed(name string) *redis.Script {
	name = "clean.lua"
	src, _ := loaderFS.ReadFile("lua/" + name)
	return redis.NewScript(string(src))
}

func loaders(rdb *redis.ClusterClient, id, name string) {
	key := "n:{" + id + "}"
	counterScript.Run(ctx, rdb, []string{key}) // want `passes 1 key but the script never reads KEYS\[1\]` `^INCR key "global:counter" \(slot \d+\) is a literal, not passed in KEYS.*\(lua/fs.lua:1\); here KEYS\[1\] is key`
	derivedScript.Run(ctx, rdb, []string{"job:{" + id + "}"}, "owner")
	derivedScript.Run(ctx, rdb, []string{"job:" + id}, "owner") // want `^script SET key KEYS\[1\] \.\. ":lock" \(lua/derived.lua:3\) is "job:" \+ id \+ ":lock" with this call's KEYS\[1\] = "job:" \+ id: it shares no hash tag`
	enqueueCmd.Run(ctx, rdb, []string{key})                     // want `passes 1 key but the script never reads KEYS\[1\]` `^INCR key "global:counter" \(slot \d+\) is a literal`
	globalScript.Run(ctx, rdb, []string{key})
	pick(true).Run(ctx, rdb, []string{key})
	renamed("fs.lua").Run(ctx, rdb, []string{key})
	loadScript(name).Run(ctx, rdb, []string{key}) // a name known only at run time
}

// forever never returns: following it stops after a few calls.
func forever(name string) string { return forever(name + "x") }

var foreverScript = redis.NewScript(forever("a"))

func recursive(rdb *redis.ClusterClient, id string) {
	foreverScript.Run(ctx, rdb, []string{"n:{" + id + "}"})
}

// command builds a script around the command it is given: each call's
// text is its own, and a finding in one is reported where the text is
// written.
func command(name string) *redis.Script {
	return redis.NewScript("redis.call('" + name + "', '*') return redis.call('GET', KEYS[1])") // want `^KEYS `
}

var (
	echoScript = command("ECHO")
	keysScript = command("KEYS") // as long as ECHO: the same place and size
)

func commands(rdb *redis.ClusterClient, id string) {
	echoScript.Run(ctx, rdb, []string{"n:{" + id + "}"})
	keysScript.Run(ctx, rdb, []string{"n:{" + id + "}"})
}
