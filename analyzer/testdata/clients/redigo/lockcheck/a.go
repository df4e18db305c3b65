// Package lockcheck holds hand-rolled locks written with redigo.
package lockcheck

import "github.com/gomodule/redigo/redis"

func acquire(c redis.Conn, key, token string) {
	ok, _ := redis.Bool(c.Do("SETNX", "lock:"+key, token)) // want `SETNX of lock key "lock:" \+ key sets no TTL and EXPIRE sets one on a later step: if the process dies in between, the lock never expires; set the TTL in the same command \(Do\("SET", key, token, "NX", "PX", ttlMillis\)\)$`
	if ok {
		c.Do("EXPIRE", "lock:"+key, 30)
	}
}

// The TTL in the acquisition itself: fine.
func acquireOnce(c redis.Conn, key, token string) (bool, error) {
	r, err := redis.String(c.Do("SET", "job:"+key, token, "NX", "PX", 30000))
	return r == "OK", err
}

func release(c redis.Conn, key, token string) error {
	v, err := redis.String(c.Do("GET", "job:"+key))
	if err != nil {
		return err
	}
	if v == token {
		_, err = c.Do("DEL", "job:"+key) // want `lock key "job:" \+ key released by GET, compare, DEL: the lock can expire and pass to another client between the GET and the DEL, which then deletes their lock; release with a redis.NewScript that compares the token and deletes in one step$`
	}
	return err
}

func forceRelease(c redis.Conn, key string) {
	c.Do("DEL", "job:"+key) // want `lock key "job:" \+ key released by DEL without an owner check: .*; release with a redis.NewScript that deletes only while the value is still this owner's token$`
}

// GET, compare, DEL inside WATCH ... MULTI/EXEC: EXEC fails if the lock
// changed hands after the GET.
func releaseWatched(c redis.Conn, key, token string) error {
	c.Send("WATCH", "job:"+key)
	v, err := redis.String(c.Do("GET", "job:"+key))
	if err != nil || v != token {
		return err
	}
	c.Send("MULTI")
	c.Send("DEL", "job:"+key)
	_, err = c.Do("EXEC")
	return err
}

var unlock = redis.NewScript(1, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Release by a script that checks the token: fine.
func releaseByScript(c redis.Conn, key, token string) {
	unlock.Do(c, "job:"+key, token)
}

// Not locks: a cache entry, and a record created only if absent (no
// expiry anywhere), whose DEL is an ordinary delete.
func ordinary(c redis.Conn, id string) {
	c.Do("DEL", "cache:"+id)
	c.Do("SETNX", "user:"+id, "x")
	c.Do("DEL", "user:"+id)
}

// A counter emulated with GET and SET: a lost update, with redigo's advice.
func bump(c redis.Conn, id string) {
	n, _ := redis.Int(c.Do("GET", "hits:"+id))
	c.Do("SET", "hits:"+id, n+1) // want `SET of "hits:" \+ id depends on the GET before it with no WATCH or script: .*; use INCRBY, or a script, or WATCH with MULTI/EXEC on the same connection$`
}

// Filling a missing value: whoever wins writes the same thing.
func fill(c redis.Conn, id string) {
	v, _ := redis.String(c.Do("GET", "name:"+id))
	if v == "" {
		c.Do("SET", "name:"+id, "anonymous")
	}
}

// A fixed-window counter whose first hit sets the TTL in a second command.
func countLogin(c redis.Conn, user string) (int64, error) {
	n, err := redis.Int64(c.Do("INCR", "attempts:"+user)) // want `INCR of counter key "attempts:" \+ user sets no TTL and EXPIRE sets one only at one count of its reply: .*; send both in one MULTI/EXEC with EXPIRE NX \(Redis 7\) on the same connection, so a lost TTL is set again by the next call, or use a redis.NewScript$`
	if err == nil && n == 1 {
		c.Do("EXPIRE", "attempts:"+user, 900)
	}
	return n, err
}
