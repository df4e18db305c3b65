// Package crossslot holds redigo command lines whose keys must share a
// slot, found with Redis's key specs.
package crossslot

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

const userPrefix = "user:"

func literals(c redis.Conn) {
	c.Do("MGET", "user:1", "user:2")            // want `MGET keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.Do("del", userPrefix+"1", userPrefix+"2") // want `DEL keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\) are in different slots`
	c.Send("RENAME", "a", "b")                  // want `RENAME keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	c.Do("MGET", "{user}:1", "{user}:2")        // one tag
	c.Do("GET", "a")                            // one key
	c.Do("SET", "a", "b")                       // b is a value
	c.Do("OBJECT", "ENCODING", "a")             // one key of a subcommand
}

func holes(pool *redis.Pool, id string) {
	c := pool.Get()
	defer c.Close()
	c.Do("MGET", "user:"+id, "order:"+id)                                // want `MGET keys "user:" \+ id and "order:" \+ id share no hash tag`
	c.Do("SINTERSTORE", fmt.Sprintf("dst:%s", id), "a:{"+id+"}")         // want `SINTERSTORE keys "dst:" \+ id and "a:\{" \+ id \+ "\}" share no hash tag`
	c.Do("MSET", "m1:"+id, 1, "m2:"+id, 2)                               // want `MSET keys "m1:" \+ id and "m2:" \+ id share no hash tag`
	c.Do("MSET", "m1:{"+id+"}", "m2:"+id, "m3:{"+id+"}", "v")            // the second key is a value
	c.Do("ZUNIONSTORE", "out:"+id, 2, "z1:{"+id+"}", "z2:{"+id+"}")      // want `ZUNIONSTORE keys "out:" \+ id and "z1:\{" \+ id \+ "\}" share no hash tag`
	c.Do("ZUNIONSTORE", "out:{"+id+"}", 2, "z1:{"+id+"}", "z2:{"+id+"}") // one tag
}

// Arguments built with redis.Args and []interface{}.
func args(c redis.Conn, id string, ids []string) {
	c.Do("MGET", redis.Args{}.Add("a:"+id).Add("b:"+id)...)                                  // want `MGET keys "a:" \+ id and "b:" \+ id share no hash tag`
	c.Do("DEL", redis.Args{}.AddFlat([]string{"x:" + id, "y:" + id})...)                     // want `DEL keys "x:" \+ id and "y:" \+ id share no hash tag`
	c.Do("MSET", redis.Args{}.AddFlat(map[string]string{"p:" + id: "1", "q:" + id: "2"})...) // want `MSET keys "p:" \+ id and "q:" \+ id share no hash tag`
	argv := []interface{}{"k1:" + id, "k2:" + id}
	c.Do("EXISTS", argv...) // want `EXISTS keys "k1:" \+ id and "k2:" \+ id share no hash tag`
	var keys []interface{}
	for _, part := range ids {
		keys = append(keys, "item:"+part)
	}
	c.Do("MGET", keys...) // want `MGET keys "item:" \+ part and "item:" \+ part of another loop iteration share no hash tag`
	c.Do("HSET", redis.Args{}.Add("h:"+id).AddFlat(map[string]int{"f1": 1, "f2": 2})...)
}

// The context and timeout forms, and the package helpers.
func forms(c redis.Conn, ctx context.Context, id string) {
	cc := c.(redis.ConnWithContext)
	cc.DoContext(ctx, "MGET", "a:"+id, "b:"+id)                 // want `MGET keys "a:" \+ id and "b:" \+ id share no hash tag`
	redis.DoContext(c, ctx, "MGET", "a:"+id, "b:"+id)           // want `MGET keys "a:" \+ id and "b:" \+ id share no hash tag`
	redis.DoWithTimeout(c, time.Second, "BLPOP", "l1", "l2", 0) // want `BLPOP keys "l1" \(slot 10293\) and "l2" \(slot 6230\) are in different slots`
}
