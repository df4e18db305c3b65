// Package scriptkeys holds redigo scripts and EVAL command lines.
package scriptkeys

import "github.com/gomodule/redigo/redis"

var incr = redis.NewScript(2, `return redis.call('INCR', KEYS[1]) + redis.call('INCR', KEYS[2])`)

var counted = redis.NewScript(-1, `return #KEYS`)

func run(c redis.Conn, id string) {
	incr.Do(c, "a:"+id, "b:"+id) // want `EVALSHA keys "a:" \+ id and "b:" \+ id share no hash tag`
	incr.Do(c, "a:{"+id+"}", "b:{"+id+"}")
	incr.Send(c, redis.Args{}.Add("a", "b")...) // want `EVAL keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	local := redis.NewScript(0, `return redis.call('GET', ARGV[1])`)
	local.Do(c, "x:"+id) // want `Script.Do called with zero keys`
	pure := redis.NewScript(0, `return 1`)
	pure.Do(c, "x:"+id)                                                      // touches no key: any master runs it the same
	counted.SendHash(c, 2, "k1:"+id, "k2:"+id)                               // want `EVALSHA keys "k1:" \+ id and "k2:" \+ id share no hash tag`
	c.Do("EVAL", "return redis.call('GET', KEYS[1])", 2, "e1:"+id, "e2:"+id) // want `EVAL keys "e1:" \+ id and "e2:" \+ id share no hash tag`
	c.Do("EVALSHA", "0123456789abcdef0123456789abcdef01234567", 0)           // want `Do called with zero keys`
}
