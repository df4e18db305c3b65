package luascript

import "github.com/gomodule/redigo/redis"

// A limiter holds its script in a field set once in its constructor.
type limiter struct {
	pool *redis.Pool
	hit  *redis.Script
}

func newLimiter(pool *redis.Pool) *limiter {
	return &limiter{pool: pool, hit: redis.NewScript(2, `redis.call('INCR', KEYS[1])
return redis.call('INCR', KEYS[2])`)}
}

var one = redis.NewScript(1, `return redis.call('GET', KEYS[1] .. ':x')`)

type reader struct{ get *redis.Script }

func newReader() reader { return reader{get: one} }

func (r reader) read(c redis.Conn, id string) {
	r.get.Do(c, "r:"+id) // want `script GET key KEYS\[1\] \.\. ":x" \(Lua line 1\) is "r:" \+ id \+ ":x" with this call.s KEYS\[1\] = "r:" \+ id: it shares no hash tag with KEYS\[1\]`
	r.get.Do(c, "r:{"+id+"}")
}

func (l *limiter) fields(c redis.Conn, id string) {
	l.hit.Do(c, "h:{"+id+"}:n", "h:{"+id+"}:total")
	l.hit.Do(c, "h:{"+id+"}:n", "h:{"+id+"}:total", "h:{"+id+"}:x") // 2 keys and 1 argument
}
