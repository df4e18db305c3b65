package lockcheck

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The classic fixed window: the first hit of a window sets its TTL.
func loginAttempts(rdb *redis.Client, user string) (bool, error) {
	key := "attempts:" + user
	n, err := rdb.Incr(ctx, key).Result() // want `INCR of counter key "attempts:" \+ user sets no TTL and EXPIRE sets one only at one count of its reply: if the process dies or the EXPIRE fails in between, no later call sets it, and the counter never expires and keeps counting; send both in one TxPipelined with ExpireNX \(EXPIRE NX, Redis 7\), so a lost TTL is set again by the next call, or use runtime's Client.IncrWindow$`
	if err != nil {
		return false, err
	}
	if n == 1 {
		rdb.Expire(ctx, key, 15*time.Minute)
	}
	return n <= 5, nil
}

// An early return when the key is not new decides the EXPIRE as well.
func perSecond(rdb redis.UniversalClient, ip string, cost int64) bool {
	n, err := rdb.IncrBy(ctx, "rps:{"+ip+"}", cost).Result() // want `INCRBY of counter key "rps:\{" \+ ip \+ "\}" sets no TTL and PEXPIRE sets one only at one count of its reply`
	if err != nil || n != cost {
		return n <= 100
	}
	rdb.PExpire(ctx, "rps:{"+ip+"}", time.Second)
	return true
}

// A hash of counters, one field per action.
func hashCounter(rdb *redis.ClusterClient, user, action string) {
	if rdb.HIncrBy(ctx, "quota:{"+user+"}", action, 1).Val() == 1 { // want `HINCRBY of counter key "quota:\{" \+ user \+ "\}" sets no TTL and EXPIREAT sets one only at one count`
		rdb.ExpireAt(ctx, "quota:{"+user+"}", time.Now().Add(24*time.Hour))
	}
}

func throughDo(rdb *redis.Client, id string) {
	if rdb.Do(ctx, "INCR", "hits:"+id).Val() == int64(1) { // want `INCR of counter key "hits:" \+ id sets no TTL and EXPIRE sets one only at one count`
		rdb.Do(ctx, "EXPIRE", "hits:"+id, 60)
	}
}

// hit is a helper that returns the count; the EXPIRE at its call site
// depends on it.
func hit(rdb *redis.Client, key string) int64 {
	return rdb.Incr(ctx, key).Val()
}

func viaCountingHelper(rdb *redis.Client, id string) {
	if hit(rdb, "visits:"+id) == 1 { // want `INCR \(in hit\) of counter key "visits:" \+ id sets no TTL and EXPIRE sets one only at one count`
		rdb.Expire(ctx, "visits:"+id, time.Hour)
	}
}

// startWindow is a helper that sets the TTL.
func startWindow(rdb *redis.Client, key string) {
	rdb.PExpire(ctx, key, time.Minute)
}

func viaExpiringHelper(rdb *redis.Client, id string) {
	n := rdb.Incr(ctx, "calls:"+id).Val() // want `INCR of counter key "calls:" \+ id sets no TTL and PEXPIRE \(in startWindow\) sets one only at one count of its reply: if the process dies or the PEXPIRE fails`
	if n == 1 {
		startWindow(rdb, "calls:"+id)
	}
}

// The EXPIRE in a later TxPipelined is still a second step.
func expireInLaterTx(rdb *redis.Client, id string) {
	n := rdb.Incr(ctx, "tx:"+id).Val() // want `INCR of counter key "tx:" \+ id sets no TTL and EXPIRE \(in TxPipelined\) sets one only at one count`
	if n == 1 {
		rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Expire(ctx, "tx:"+id, time.Minute)
			return nil
		})
	}
}

// A counter behind an interface of the caller's own that lists go-redis's
// methods.
type counterClient interface {
	Incr(ctx context.Context, key string) *redis.IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *redis.BoolCmd
}

func countThroughInterface(c counterClient, id string) int64 {
	n, _ := c.Incr(ctx, "otp:"+id).Result() // want `INCR of counter key "otp:" \+ id sets no TTL and EXPIRE sets one only at one count`
	if n == 1 {
		c.Expire(ctx, "otp:"+id, 10*time.Minute)
	}
	return n
}

// Silent: INCR and EXPIRE NX in one MULTI/EXEC run both or neither.
func inTransactionNX(rdb *redis.Client, key string) int64 {
	var incr *redis.IntCmd
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incr = p.Incr(ctx, key)
		p.ExpireNX(ctx, key, time.Minute)
		return nil
	})
	return incr.Val()
}

// Silent: the EXPIRE follows every increment, so the next call sets a
// TTL that a crash lost (the window slides).
func everyTime(rdb *redis.Client, key string) int64 {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return 0
	}
	rdb.Expire(ctx, key, time.Minute)
	return n
}

// Silent: a missing TTL is found and set again on any call.
func repairsMissingTTL(rdb *redis.Client, key string) int64 {
	n := rdb.Incr(ctx, key).Val()
	ttl := rdb.TTL(ctx, key).Val()
	if n == 1 || ttl == -1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	return n
}

// Silent: the condition is the caller's, not the reply's.
func callerDecides(rdb *redis.Client, key string, fresh bool) {
	rdb.Incr(ctx, key)
	if fresh {
		rdb.Expire(ctx, key, time.Minute)
	}
}

// Silent: another key, and an EXPIRE that only comes before the INCR.
func otherCounterKeys(rdb *redis.Client, a, b string) {
	if rdb.Incr(ctx, "n:"+a).Val() == 1 {
		rdb.Expire(ctx, "n:"+b, time.Minute)
	}
	rdb.Expire(ctx, "m:"+a, time.Minute)
	rdb.Incr(ctx, "m:"+a)
}

// Silent: a script runs both in one step.
var incrWindow = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`)

func scripted(rdb *redis.Client, key string) (int64, error) {
	return incrWindow.Run(ctx, rdb, []string{key}, 60000).Int64()
}

func suppressedCounter(rdb *redis.Client, key string) {
	//slotlint:ignore SL1305 the counter's key carries the day and a nightly job deletes old days
	if rdb.Incr(ctx, key).Val() == 1 {
		rdb.Expire(ctx, key, 24*time.Hour)
	}
}

// Silent: a sequence per day, whose key names the day. A crash between
// the two leaves one past day's key behind; the next day counts in a new
// key, so nothing stays stuck.
func dailySequence(rdb *redis.Client, prefix string) int64 {
	key := prefix + time.Now().Format("20060102")
	seq, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return 0
	}
	if seq == 1 {
		_ = rdb.Expire(ctx, key, 48*time.Hour).Err()
	}
	return seq
}

// Silent: only the error decides the EXPIRE, which every successful
// increment sends.
func slidingOnSuccess(rdb *redis.Client, ip string) int64 {
	count := int64(1)
	key := "limit:trigger:" + ip
	if n, err := rdb.Incr(ctx, key).Result(); err == nil {
		count = n
		_ = rdb.Expire(ctx, key, 48*time.Hour).Err()
	}
	return count
}

// The ban starts when the count reaches the limit: the EXPIRE runs for
// that one count, and a lost one is never sent again.
func banWhenReached(rdb *redis.Client, user string, limit int64) bool {
	n, _ := rdb.Incr(ctx, "ban:{"+user+"}").Result() // want `INCR of counter key "ban:\{" \+ user \+ "\}" sets no TTL and EXPIRE sets one only at one count`
	if n == limit {
		rdb.Expire(ctx, "ban:{"+user+"}", time.Hour)
	}
	return n >= limit
}

// An early return past the first hit is the first-hit test again.
func firstHitByOrder(rdb *redis.Client, key string) {
	if n := rdb.Incr(ctx, key).Val(); n > 1 { // want `INCR of counter key key sets no TTL and EXPIRE sets one only at one count`
		return
	}
	rdb.Expire(ctx, key, time.Minute)
}

// Silent: every call under the limit sends the EXPIRE, so the next one
// sets a TTL a crash lost.
func underLimit(rdb *redis.Client, key string, limit int64) bool {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil || n > limit {
		return false
	}
	rdb.Expire(ctx, key, time.Minute)
	return true
}

// Silent: a fixed window named by its start, through locals.
func perMinuteWindow(rdb *redis.Client, ip string) bool {
	now := time.Now().Unix()
	windowStart := now / 60 * 60
	key := fmt.Sprintf("rl:%s:%d", ip, windowStart)
	n, _ := rdb.Incr(ctx, key).Result()
	if n == 1 {
		rdb.Expire(ctx, key, 2*time.Minute)
	}
	return n <= 100
}

// A window start the caller passes in is not seen to come from the clock:
// reported.
func windowFromCaller(rdb *redis.Client, ip string, windowStart int64) bool {
	key := fmt.Sprintf("rl:%s:%d", ip, windowStart)
	n, _ := rdb.Incr(ctx, key).Result() // want `INCR of counter key "rl:" \+ ip \+ ":" \+ windowStart sets no TTL`
	if n == 1 {
		rdb.Expire(ctx, key, 2*time.Minute)
	}
	return n <= 100
}

// The count is read from a Pipeline before Exec: it is always 0 there, so
// the EXPIRE is never even queued and the counter never expires at all.
func countReadBeforeExec(rdb *redis.Client, mobile string) (int64, error) {
	key := "pwd-errors:" + mobile
	pipe := rdb.Pipeline()
	incr, err := pipe.Incr(ctx, key).Result() // want `INCR of counter key "pwd-errors:" \+ mobile sets no TTL and EXPIRE sets one only at one count`
	if err != nil {
		return 0, err
	}
	if incr == 1 {
		pipe.Expire(ctx, key, time.Hour)
	}
	_, err = pipe.Exec(ctx)
	return incr, err
}

// A TTL read after the EXPIRE (for a Retry-After header) repairs nothing.
func ttlReadAfter(rdb *redis.Client, key string, limit int64) (bool, time.Duration) {
	count, err := rdb.Incr(ctx, key).Result() // want `INCR of counter key key sets no TTL and EXPIRE sets one only at one count`
	if err != nil {
		return false, 0
	}
	if count == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	ttl := rdb.TTL(ctx, key).Val()
	return count <= limit, ttl
}
