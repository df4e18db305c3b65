// Package txslot holds redigo MULTI ... EXEC transactions.
package txslot

import "github.com/gomodule/redigo/redis"

func multi(c redis.Conn, id string) {
	c.Send("MULTI")
	c.Send("INCR", "hits:"+id)
	c.Send("INCR", "total:"+id) // want `MULTI transaction keys "hits:" \+ id and "total:" \+ id share no hash tag`
	c.Do("EXEC")
}

func multiLoop(pool *redis.Pool, id string, parts []string) {
	c := pool.Get()
	defer c.Close()
	c.Do("MULTI")
	for _, p := range parts {
		c.Send("DEL", "item:"+id+":"+p) // want `MULTI transaction keys "item:" \+ id \+ ":" \+ p and "item:" \+ id \+ ":" \+ p of another loop iteration share no hash tag`
	}
	c.Do("EXEC")
}

func watched(c redis.Conn, id string) error {
	if _, err := c.Do("WATCH", "balance:{"+id+"}"); err != nil {
		return err
	}
	n, err := redis.Int(c.Do("GET", "balance:{"+id+"}"))
	if err != nil {
		return err
	}
	c.Send("MULTI")
	c.Send("SET", "balance:{"+id+"}", n+1)
	c.Send("SET", "audit:"+id, n) // want `WATCH transaction keys "balance:\{" \+ id \+ "\}" and "audit:" \+ id share no hash tag`
	_, err = c.Do("EXEC")
	return err
}

func watchOnly(c redis.Conn) {
	c.Do("WATCH", "a", "b") // want `WATCH transaction keys "a" \(slot 15495\) and "b" \(slot 3300\) are in different slots`
	c.Do("UNWATCH")
}

// Helpers handed the connection inside MULTI: what they send is queued in
// the transaction.
func sendHit(c redis.Conn, page string) {
	c.Send("INCR", "hits:{"+page+"}")
}

func sendTotal(c redis.Conn) error { return c.Send("INCR", "hits:total") }

func sendDay(c redis.Conn, page, day string) { c.Send("INCR", "hits:{"+page+"}:"+day) }

func multiHelpers(c redis.Conn, page, day string) {
	c.Send("MULTI")
	sendHit(c, page)
	sendTotal(c) // want `MULTI transaction keys "hits:\{" \+ page \+ "\}" and "hits:total" \(slot \d+\) share no hash tag`
	c.Do("EXEC")

	c.Send("MULTI")
	sendHit(c, page)
	sendDay(c, page, day) // one page's keys: one tag
	c.Do("EXEC")

	// After EXEC the helpers' commands are not queued.
	sendHit(c, page)
	sendTotal(c)
}

// One branch's command or the other's: never both in one MULTI.
func multiBranches(c redis.Conn, id string, admin bool) {
	c.Send("MULTI")
	if admin {
		c.Send("INCR", "admins:"+id)
	} else {
		c.Send("INCR", "users:"+id)
	}
	c.Do("EXEC")
	c.Send("MULTI")
	if admin {
		c.Send("INCR", "admins:"+id)
	}
	c.Send("INCR", "users:"+id) // want `MULTI transaction keys "admins:" \+ id and "users:" \+ id share no hash tag`
	c.Do("EXEC")
}
