package luascript

import (
	"context"
	"embed"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// A literal: the finding is on the script's third line.
var literal = redis.NewScript(`local v = redis.call('GET', KEYS[1])
local w = v
return w + 1`) // want `^arithmetic \(\+\) on the reply of GET`

// A constant on one line: every script line is this Go line.
const incrSrc = "if redis.call('GET', KEYS[1]) == nil then return 0 end return 1" // want `compared with nil`

var fromConst = redis.NewScript(incrSrc)

// A package-level variable given one value.
// want +1 `global print does not exist`
var printSrc = `print('x')
return redis.call('GET', KEYS[1])`

// Concatenated pieces: the finding is in the second piece, on its line.
const header = "local cur = redis.call('GET', KEYS[1])\n"

var concat = redis.NewScript(header +
	"while true do redis.call('INCR', KEYS[1]) end\n" + // want `^while loop never ends`
	"return cur")

// want +2 `^lua/bytes.lua:2:10: arithmetic \(\+\) on the reply of GET`
//
//go:embed lua/bytes.lua
var bytesLua []byte

// want +2 `^lua/global.lua:1:1: assignment to global variable count`
//
//go:embed lua/*.lua
var luaFS embed.FS

// want +2 `^lua/nilcmp.lua:2:\d+: .*compared with nil`
//
//go:embed lua/nilcmp.lua
var nilCmpLua string

var nilCmp = redis.NewScript(nilCmpLua)

var fromBytes = redis.NewScript(string(bytesLua))

func sources(rdb *redis.ClusterClient, id string) {
	key := "n:{" + id + "}"
	literal.Run(ctx, rdb, []string{key})
	fromConst.Run(ctx, rdb, []string{key})
	rdb.Eval(ctx, printSrc, []string{key})
	concat.Run(ctx, rdb, []string{key})
	fromBytes.Run(ctx, rdb, []string{key})
	src, _ := luaFS.ReadFile("lua/fs.lua")
	redis.NewScript(string(src)).Run(ctx, rdb, []string{key}) // want `passes 1 key but the script never reads KEYS\[1\]` `^INCR key "global:counter" \(slot \d+\) is a literal, not passed in KEYS.*\(lua/fs.lua:1\); here KEYS\[1\] is key and the key shares no hash tag with KEYS\[1\]$`
	global, _ := luaFS.ReadFile("lua/global.lua")
	redis.NewScript(string(global)).Run(ctx, rdb, []string{key})
	clean, _ := luaFS.ReadFile("lua/clean.lua")
	redis.NewScript(string(clean)).Run(ctx, rdb, []string{key})
	rdb.Do(ctx, "EVAL", "return redis.call('GET', 'literal:key')", 1, key)               // want `Do passes 1 key but the script never reads KEYS\[1\]` `GET key "literal:key" \(slot \d+\) is a literal.*\(Lua line 1\); here KEYS\[1\] is key`
	rdb.Do(ctx, "EVAL", "return redis.call('COPY', '{n}:literal', KEYS[1])", 1, "{n}:a") // a literal in the slot of KEYS[1]
}

// Malformed Lua is one finding at its line, not a crash.
var broken = redis.NewScript(`local x = 1
return (x`) // want `^unexpected EOF|syntax|expected`

// goto, which Redis's Lua 5.1 refuses.
var withGoto = redis.NewScript("::again:: goto again") // want `^label ::again:: is Lua 5.2 syntax` `^goto is Lua 5.2 syntax`

// NewScriptServerSHA holds its text like NewScript.
var serverSHA = redis.NewScriptServerSHA(`return redis.call('GET', KEYS[1]) == nil`) // want `compared with nil`

// A variable given two values is not followed: which script runs is not
// known.
var chosen = "return redis.call('GET', 'a:literal')"

func init() { chosen = "return redis.call('GET', KEYS[1])" }

func ambiguous(rdb *redis.ClusterClient, id string) {
	rdb.Eval(ctx, chosen, []string{"{" + id + "}"})
	rdb.EvalRO(ctx, "return redis.call('DEL', KEYS[1])", []string{"{" + id + "}"}) // want `^Lua line 1: .*DEL`
	serverSHA.Run(ctx, rdb, []string{"{" + id + "}"})
}
