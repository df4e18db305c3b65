// Package groundtruth holds redigo cases whose slotlint label is checked
// against a real Redis Cluster: the first line of each case's comment is
// the rule the analyzers must report inside it, or "clean".
package groundtruth

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

// A Case sends its commands on c; id is a value the analyzer does not know.
type Case func(c redis.Conn, id string) error

// Cases are every case by name.
var Cases = map[string]Case{
	"mgetLiteral": mgetLiteral, "mgetLiteralTag": mgetLiteralTag,
	"mgetHoles": mgetHoles, "mgetTagged": mgetTagged,
	"delArgs": delArgs, "delArgsTagged": delArgsTagged,
	"msetMap": msetMap, "msetMapTagged": msetMapTagged,
	"loopKeys": loopKeys, "loopSameTag": loopSameTag,
	"doContext": doContext, "doContextTagged": doContextTagged,
	"multiHoles": multiHoles, "multiTagged": multiTagged, "multiLoop": multiLoop,
	"plainPipeline": plainPipeline,
	"watchKeys":     watchKeys, "watchTagged": watchTagged,
	"scriptHoles": scriptHoles, "scriptTagged": scriptTagged,
	"evalHoles": evalHoles, "evalTagged": evalTagged,
	"singleKey": singleKey,
}

// SL1001
func mgetLiteral(c redis.Conn, id string) error {
	_, err := c.Do("MGET", "slotlint-gt:user:1", "slotlint-gt:user:2")
	return err
}

// clean
func mgetLiteralTag(c redis.Conn, id string) error {
	_, err := c.Do("MGET", "{slotlint-gt}:user:1", "{slotlint-gt}:user:2")
	return err
}

// SL1002
func mgetHoles(c redis.Conn, id string) error {
	_, err := c.Do("MGET", "gt:a:"+id, "gt:b:"+id)
	return err
}

// clean
func mgetTagged(c redis.Conn, id string) error {
	_, err := c.Do("MGET", "gt:a:{"+id+"}", "gt:b:{"+id+"}")
	return err
}

// SL1002
func delArgs(c redis.Conn, id string) error {
	_, err := c.Do("DEL", redis.Args{}.Add("gt:x:"+id).AddFlat([]string{"gt:y:" + id})...)
	return err
}

// clean
func delArgsTagged(c redis.Conn, id string) error {
	_, err := c.Do("DEL", redis.Args{}.Add("gt:x:{"+id+"}").AddFlat([]string{"gt:y:{" + id + "}"})...)
	return err
}

// SL1002
func msetMap(c redis.Conn, id string) error {
	_, err := c.Do("MSET", redis.Args{}.AddFlat(map[string]int{"gt:m1:" + id: 1, "gt:m2:" + id: 2})...)
	return err
}

// clean
func msetMapTagged(c redis.Conn, id string) error {
	_, err := c.Do("MSET", redis.Args{}.AddFlat(map[string]int{"gt:m1:{" + id + "}": 1, "gt:m2:{" + id + "}": 2})...)
	return err
}

// SL1002
func loopKeys(c redis.Conn, id string) error {
	var keys []interface{}
	for _, part := range []string{id + "1", id + "2", id + "3"} {
		keys = append(keys, "gt:item:"+part)
	}
	_, err := c.Do("MGET", keys...)
	return err
}

// clean
func loopSameTag(c redis.Conn, id string) error {
	var keys []interface{}
	for _, part := range []string{"1", "2", "3"} {
		keys = append(keys, "gt:{"+id+"}:item:"+part)
	}
	_, err := c.Do("MGET", keys...)
	return err
}

// SL1002
func doContext(c redis.Conn, id string) error {
	_, err := redis.DoContext(c, context.Background(), "EXISTS", "gt:e1:"+id, "gt:e2:"+id)
	return err
}

// clean
func doContextTagged(c redis.Conn, id string) error {
	_, err := redis.DoContext(c, context.Background(), "EXISTS", "gt:e1:{"+id+"}", "gt:e2:{"+id+"}")
	return err
}

// SL1003
func multiHoles(c redis.Conn, id string) error {
	c.Send("MULTI")
	c.Send("INCR", "gt:hits:"+id)
	c.Send("INCR", "gt:total:"+id)
	_, err := c.Do("EXEC")
	return err
}

// clean
func multiTagged(c redis.Conn, id string) error {
	c.Send("MULTI")
	c.Send("INCR", "gt:hits:{"+id+"}")
	c.Send("INCR", "gt:total:{"+id+"}")
	_, err := c.Do("EXEC")
	return err
}

// SL1003
func multiLoop(c redis.Conn, id string) error {
	c.Send("MULTI")
	for _, part := range []string{"a:" + id, "bb:" + id} {
		c.Send("INCR", "gt:n:"+part)
	}
	_, err := c.Do("EXEC")
	return err
}

// clean
func plainPipeline(c redis.Conn, id string) error {
	c.Send("INCR", "gt:pp1:"+id)
	c.Send("INCR", "gt:pp2:"+id)
	if err := c.Flush(); err != nil {
		return err
	}
	_, err1 := c.Receive()
	_, err2 := c.Receive()
	return join(err1, err2)
}

// SL1003
func watchKeys(c redis.Conn, id string) error {
	if _, err := c.Do("WATCH", "gt:w1:"+id, "gt:w2:"+id); err != nil {
		return err
	}
	c.Send("MULTI")
	c.Send("SET", "gt:w1:"+id, 1)
	_, err := c.Do("EXEC")
	return err
}

// clean
func watchTagged(c redis.Conn, id string) error {
	if _, err := c.Do("WATCH", "gt:w1:{"+id+"}", "gt:w2:{"+id+"}"); err != nil {
		return err
	}
	n, err := redis.Int(c.Do("GET", "gt:w1:{"+id+"}"))
	if err != nil && err != redis.ErrNil {
		return err
	}
	c.Send("MULTI")
	c.Send("SET", "gt:w1:{"+id+"}", n+1)
	c.Send("SET", "gt:w2:{"+id+"}", n)
	_, err = c.Do("EXEC")
	return err
}

var getScript = redis.NewScript(2, "return redis.call('GET', KEYS[1]) or redis.call('GET', KEYS[2])")

// SL1004
func scriptHoles(c redis.Conn, id string) error {
	_, err := getScript.Do(c, "gt:s1:"+id, "gt:s2:"+id)
	return err
}

// clean
func scriptTagged(c redis.Conn, id string) error {
	_, err := getScript.Do(c, "gt:s1:{"+id+"}", "gt:s2:{"+id+"}")
	return err
}

// SL1004
func evalHoles(c redis.Conn, id string) error {
	_, err := c.Do("EVAL", "return redis.call('EXISTS', KEYS[1], KEYS[2])", 2, "gt:e1:"+id, "gt:e2:"+id)
	return err
}

// clean
func evalTagged(c redis.Conn, id string) error {
	_, err := c.Do("EVAL", "return redis.call('EXISTS', KEYS[1], KEYS[2])", 2, "gt:e1:{"+id+"}", "gt:e2:{"+id+"}")
	return err
}

// clean
func singleKey(c redis.Conn, id string) error {
	_, err := c.Do("GET", "gt:single:"+id)
	return err
}

func join(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
