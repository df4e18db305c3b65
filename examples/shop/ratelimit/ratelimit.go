// Package ratelimit limits requests per client with a fixed window.
package ratelimit

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Limiter allows Limit requests per Window for each client.
type Limiter struct {
	rdb    redis.UniversalClient
	Limit  int
	Window time.Duration
}

// New returns a Limiter on a standalone, Sentinel or cluster client.
func New(rdb redis.UniversalClient, limit int, window time.Duration) *Limiter {
	return &Limiter{rdb: rdb, Limit: limit, Window: window}
}

func windowKey(client string) string { return "rate:{" + client + "}" }

// allow counts a request and says whether it is within the limit.
const allow = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if count > tonumber(ARGV[1]) then
  return 0
end
return 1
`

// Allow counts one request of a client and reports whether it may go on.
func (l *Limiter) Allow(ctx context.Context, client string) (bool, error) {
	n, err := l.rdb.Eval(ctx, allow, []string{windowKey(client)}, l.Limit, l.Window.Milliseconds()).Int()
	return n == 1, err
}

// LoginFailed counts a failed login of an account and reports whether the
// account must wait for the window to pass before it tries again.
func (l *Limiter) LoginFailed(ctx context.Context, account string) (bool, error) {
	key := "login-failures:{" + account + "}"
	// SL1305: a process that dies (or an EXPIRE that times out) after the
	// INCR leaves the counter without a TTL, and no later failure is the
	// first of a window: the account stays locked out for good.
	n, err := l.rdb.Incr(ctx, key).Result()
	if err != nil {
		return false, err
	}
	if n == 1 {
		l.rdb.Expire(ctx, key, l.Window)
	}
	return n > int64(l.Limit), nil
}

// Remaining tells a client how many requests it has left in the window,
// read from a replica so that it costs the masters nothing.
func (l *Limiter) Remaining(ctx context.Context, client string) (int, error) {
	// LUA304: a client with no request in the window has no key, GET
	// replies false and tonumber(false) is nil: the subtraction raises an
	// error instead of returning the full limit.
	left, err := l.rdb.EvalRO(ctx, `
local left = tonumber(ARGV[1]) - tonumber(redis.call('GET', KEYS[1]))
if left < 0 then
  return 0
end
return left
`, []string{windowKey(client)}, l.Limit).Int()
	return left, err
}

// Reset clears a client's window, for support staff.
func (l *Limiter) Reset(ctx context.Context, client string) error {
	// LUA403: EVAL_RO runs on replicas, which refuse the DEL ("Write
	// commands are not allowed from read-only scripts").
	return l.rdb.EvalRO(ctx, `return redis.call('DEL', KEYS[1])`, []string{windowKey(client)}).Err()
}
