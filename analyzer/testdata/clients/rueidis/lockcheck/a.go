// Package lockcheck holds hand-rolled locks written with rueidis's command
// builder.
package lockcheck

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

func acquire(ctx context.Context, c rueidis.Client, key, token string) {
	ok, _ := c.Do(ctx, c.B().Setnx().Key("lock:"+key).Value(token).Build()).AsBool() // want `SETNX of lock key "lock:" \+ key sets no TTL and EXPIRE sets one on a later step: if the process dies in between, the lock never expires; set the TTL in the same command \(B\(\)\.Set\(\)\.Key\(key\)\.Value\(token\)\.Nx\(\)\.Px\(ttl\)\.Build\(\)\) or use rueidislock$`
	if ok {
		c.Do(ctx, c.B().Expire().Key("lock:"+key).Seconds(30).Build())
	}
}

// The TTL in the acquisition itself: fine.
func acquireOnce(ctx context.Context, c rueidis.Client, key, token string) error {
	return c.Do(ctx, c.B().Set().Key("job:"+key).Value(token).Nx().Px(30*time.Second).Build()).Error()
}

func release(ctx context.Context, c rueidis.Client, key, token string) error {
	v, err := c.Do(ctx, c.B().Get().Key("job:"+key).Build()).ToString()
	if err != nil {
		return err
	}
	if v == token {
		return c.Do(ctx, c.B().Del().Key("job:"+key).Build()).Error() // want `lock key "job:" \+ key released by GET, compare, DEL: .*; release with rueidislock or a rueidis.NewLuaScript that compares the token and deletes in one step$`
	}
	return nil
}

func forceRelease(ctx context.Context, c rueidis.Client, key string) {
	c.Do(ctx, c.B().Del().Key("job:"+key).Build()) // want `lock key "job:" \+ key released by DEL without an owner check: .*; release with rueidislock or a rueidis.NewLuaScript that deletes only while the value is still this owner's token$`
}

var unlock = rueidis.NewLuaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Release by a script that checks the token: fine.
func releaseByScript(ctx context.Context, c rueidis.Client, key, token string) {
	unlock.Exec(ctx, c, []string{"job:" + key}, []string{token})
}

// Not locks: a cache entry, and a record created only if absent (no
// expiry anywhere), whose DEL is an ordinary delete.
func ordinary(ctx context.Context, c rueidis.Client, id string) {
	c.Do(ctx, c.B().Del().Key("cache:"+id).Build())
	c.Do(ctx, c.B().Setnx().Key("user:"+id).Value("x").Build())
	c.Do(ctx, c.B().Del().Key("user:"+id).Build())
}

// A counter emulated with GET and SET: a lost update, with rueidis's advice.
func bump(ctx context.Context, c rueidis.Client, id string) {
	n, _ := c.Do(ctx, c.B().Get().Key("hits:"+id).Build()).AsInt64()
	c.Do(ctx, c.B().Set().Key("hits:"+id).Value(strconv.FormatInt(n+1, 10)).Build()) // want `SET of "hits:" \+ id depends on the GET before it with no WATCH or script: .*; use INCRBY, or a script, or WATCH with MULTI/EXEC on a dedicated connection \(Dedicated\)$`
}

// Filling a missing value: whoever wins writes the same thing.
func fill(ctx context.Context, c rueidis.Client, id string) {
	v, _ := c.Do(ctx, c.B().Get().Key("name:"+id).Build()).ToString()
	if v == "" {
		c.Do(ctx, c.B().Set().Key("name:"+id).Value("anonymous").Build())
	}
}

// The result's Error alone says whether the key exists (as go-redis's
// Err), not its value: a write under that test does not depend on the
// value read; one built from the value does.
func appendLog(ctx context.Context, c rueidis.Client, id string, lines []string) {
	for _, line := range lines {
		res := c.Do(ctx, c.B().Get().Key("log:"+id).Build())
		if rueidis.IsRedisNil(res.Error()) {
			c.Do(ctx, c.B().Set().Key("log:"+id).Value(line).Build())
			continue
		}
		old, _ := res.ToString()
		c.Do(ctx, c.B().Set().Key("log:"+id).Value(old+"\n"+line).Build()) // want `SET of "log:" \+ id depends on the GET before it with no WATCH or script`
	}
}

func firstSeen(ctx context.Context, c rueidis.Client, id, v string) {
	if rueidis.IsRedisNil(c.Do(ctx, c.B().Get().Key("seen:"+id).Build()).Error()) {
		c.Do(ctx, c.B().Set().Key("first:"+id).Value(v).Build())
	}
	if c.Do(ctx, c.B().Get().Key("seen2:"+id).Build()).Error() != nil {
		c.Do(ctx, c.B().Set().Key("seen2:"+id).Value(v).Build())
	}
}

// A fixed-window counter whose first hit sets the TTL in a second command.
func countLogin(ctx context.Context, c rueidis.Client, user string) int64 {
	n, _ := c.Do(ctx, c.B().Incr().Key("attempts:"+user).Build()).AsInt64() // want `INCR of counter key "attempts:" \+ user sets no TTL and EXPIRE sets one only at one count of its reply: .*; send both in one DoMulti of MULTI, the increment, EXPIRE NX \(Redis 7\) and EXEC, so a lost TTL is set again by the next call, or use a rueidis.NewLuaScript$`
	if n == 1 {
		c.Do(ctx, c.B().Expire().Key("attempts:"+user).Seconds(900).Build())
	}
	return n
}
