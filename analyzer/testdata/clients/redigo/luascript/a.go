// Package luascript holds redigo scripts checked by the Lua checker, with
// the key count given to NewScript.
package luascript

import "github.com/gomodule/redigo/redis"

var swap = redis.NewScript(2, `
local a = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], redis.call('GET', KEYS[2]))
return redis.call('SET', KEYS[2], a)
`)

const getSrc = `return redis.call('GET', KEYS[1])`

var get3 = redis.NewScript(3, getSrc)

var byArg = redis.NewScript(1, `return redis.call('GET', 'k:' .. ARGV[1])`)

func run(c redis.Conn, id string) {
	swap.Do(c, "s:{"+id+"}:a", "s:{"+id+"}:b")
	get3.Do(c, "g:{"+id+"}", "g:{"+id+"}:2", "g:{"+id+"}:3") // want `^Script.Do passes 3 keys but the script never reads KEYS\[2\], KEYS\[3\]`
	byArg.Do(c, "k:{"+id+"}", id)                            // want `never reads KEYS\[1\]` `script GET key "k:" .. ARGV\[1\] \(Lua line 1\) is "k:" \+ id with this call's ARGV\[1\] = id, KEYS\[1\] = "k:\{" \+ id \+ "\}": it shares no hash tag with KEYS\[1\]`
}

var bad = redis.NewScript(1, `return redis.call('GET', KEYS[1]`) // want `syntax error at the end of the script`

func runBad(c redis.Conn) { bad.Do(c, "k") }

// Checked though never run.
var unused = redis.NewScript(1, `return redis.call('DEL', KEYS[1]`) // want `syntax error at the end of the script`
