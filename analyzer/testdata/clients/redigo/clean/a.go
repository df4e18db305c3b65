// Package clean is redigo code slotlint must stay silent on.
package clean

import "github.com/gomodule/redigo/redis"

// A plain pipeline is not a transaction: each command is routed alone.
func pipeline(c redis.Conn, id string) {
	c.Send("INCR", "hits:"+id)
	c.Send("INCR", "total:"+id)
	c.Flush()
	c.Receive()
	c.Receive()
}

// A transaction on another connection does not take in these commands.
func twoConns(pool *redis.Pool, id string) {
	tx := pool.Get()
	other := pool.Get()
	tx.Send("MULTI")
	tx.Send("INCR", "c:{"+id+"}:hits")
	other.Send("INCR", "elsewhere:"+id)
	tx.Send("EXPIRE", "c:{"+id+"}:hits", 60)
	tx.Do("EXEC")
	other.Do("GET", "after:"+id)
}

// Commands after EXEC are outside the transaction.
func afterExec(c redis.Conn, id string) {
	c.Send("MULTI")
	c.Send("SET", "{"+id+"}:a", 1)
	c.Do("EXEC")
	c.Do("SET", "other:"+id, 1)
}

// Keys that share a hash tag.
func tagged(c redis.Conn, id string) {
	c.Do("MGET", "user:{"+id+"}:name", "user:{"+id+"}:mail")
	c.Do("RENAME", "{job}:pending", "{job}:done")
	c.Do("MSET", redis.Args{}.Add("{"+id+"}:a", "x:"+id).Add("{"+id+"}:b", 2)...)
}

// mgetEach fetches keys of different slots one by one, as a cluster-safe
// MGET replacement does.
func mgetEach(c redis.Conn, keys ...string) ([]string, error) {
	var out []string
	for _, k := range keys {
		v, err := redis.String(c.Do("GET", k))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func useMGetEach(c redis.Conn, id string) {
	mgetEach(c, "user:"+id, "order:"+id)
	c.Do("HSET", "h:"+id, "f1", "v1", "f2", "v2")
	c.Do("PUBLISH", "channel:"+id, "message")
	c.Do("PING")
	c.Do("SET", "lock:"+id, "token", "NX", "PX", 30000)
}

var get = redis.NewScript(1, `return redis.call('GET', KEYS[1])`)

func scripts(c redis.Conn, id string) {
	get.Do(c, "s:"+id)
	get.Do(c, "s:"+id, "arg-that-is-not-a-key:"+id)
}
