package runtime

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ObtainOptions tune one Obtain or LockAndSet call. nil means the defaults.
type ObtainOptions struct {
	// Token identifies the owner. Empty means a fresh token of 128 bits
	// from crypto/rand. Passing the token of a lock this owner holds
	// re-enters it: the reentry count grows and the fencing token stays.
	Token string

	// NoWait makes one attempt only: a lock held by another owner is then
	// reported at once with ErrNotObtained.
	NoWait bool
}

// Lock is one hold (one entry) of a distributed lock. Its methods are safe
// for concurrent use.
//
// In Redis the lock is a hash at Key() with the owner's token, the reentry
// count and the fencing token, expiring after the TTL; callers waiting for
// it queue in a sorted set at WakeKey(Key()), and each blocks on a
// short-lived wake-up list of its own next to it, so the lock key must have
// a hash tag (build it with Key). Fencing tokens come from a counter
// shared by all locks of the key's hash slot (see Fence): a lock leaves no
// key behind once released or expired, and the counters number at most
// 16384 whatever the number of lock keys.
type Lock struct {
	c        *Client
	key      string
	fenceKey string
	queueKey string
	keys     []string // key, fenceKey, queueKey: the keys of release.lua
	token    string
	tokenArg any // token as a script argument, converted once
	fence    int64
	count    int64
	gate     *gate  // counts this lock as held in process until released
	lease    *lease // shared by the owner's entries taken through this Client

	mu        sync.Mutex
	ttl       time.Duration // what KeepAlive renews this entry's lease to
	released  bool
	watching  bool
	stopWatch func() // stops the KeepAlive watchdog and waits for it
}

// Key returns the lock's key.
func (l *Lock) Key() string {
	if l == nil {
		return ""
	}
	return l.key
}

// Token returns the owner token; pass it in ObtainOptions to re-enter.
func (l *Lock) Token() string {
	if l == nil {
		return ""
	}
	return l.token
}

// Fence returns the fencing token: it is greater than that of every earlier
// holder of the lock, so a store that remembers the greatest token it has
// seen can refuse writes from a holder whose lock has since expired.
//
// Tokens come from one counter per hash slot, at
// "slotlint:fence:{t}" where t is a fixed tag of the lock key's slot, shared
// by every lock of that slot: tokens of one lock grow strictly, not by one.
// The counter has no TTL and the package never deletes it, so tokens keep
// growing across releases, expiries and hand-offs, without limit in time,
// for as long as Redis keeps its data. Only losing the counter (FLUSHALL or
// FLUSHDB, a restart without persistence, a failover that loses
// acknowledged writes, eviction under an allkeys-* maxmemory policy) starts
// them again from 1, after which a store that remembers an older, higher
// token refuses the new holder until the counter passes it: such a store
// fails safe, never accepting a stale write.
func (l *Lock) Fence() int64 {
	if l == nil {
		return 0
	}
	return l.fence
}

// Count returns how many entries of this owner held the lock when this entry
// was taken (1 for a first acquisition).
func (l *Lock) Count() int64 {
	if l == nil {
		return 0
	}
	return l.count
}

// Deadline returns the time until which this process may act as the holder:
// the lease Redis reported, measured from before the request that took,
// re-entered or last renewed the lock, less a margin for clock drift (1% and
// 1ms). Redis keeps the lock at least that long, so an owner that stops work
// by the deadline never overlaps the next owner.
//
// A lock has one lease, not one per entry: a re-entry or Refresh with a
// longer TTL extends it and one with a shorter TTL leaves it as it is, so
// the lease only grows while the owner holds the lock. The entries of one
// owner taken through one Client share it, and each reports the latest
// lease any of them saw.
func (l *Lock) Deadline() time.Time {
	if l == nil {
		return time.Time{}
	}
	return l.lease.deadline()
}

// obtained fails for a Lock that no Client returned: nil or a zero value.
func (l *Lock) obtained() error {
	if l == nil || l.c.ready() != nil || l.key == "" {
		return invalidArg("the Lock was not obtained from a Client")
	}
	return nil
}

// lease is what Redis holds for one owner of one lock: the entries that the
// owner took through one Client share it, so every entry's Deadline follows
// the extensions made through any of them.
type lease struct {
	mu    sync.Mutex
	until time.Time
	// latest is when Redis drops the lock at the latest: the lease
	// measured from the reply. A waiter of this Client tries again then.
	latest time.Time
	refs   int // entries not yet released; guarded by Client.mu
}

// leaseID names the lease of one owner (token) of one lock.
type leaseID struct{ key, token string }

func (ls *lease) deadline() time.Time {
	if ls == nil {
		return time.Time{}
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.until
}

// extend records a lease of left measured at start. Redis only ever extends
// a held lease, so the later of the two estimates is the better one.
func (ls *lease) extend(start time.Time, left time.Duration) {
	if ls == nil {
		return
	}
	end, latest := leaseEnd(start, left), time.Now().Add(left)
	ls.mu.Lock()
	if end.After(ls.until) {
		ls.until = end
	}
	if latest.After(ls.latest) {
		ls.latest = latest
	}
	ls.mu.Unlock()
}

// expiresBy returns when Redis drops the lock at the latest, unless it is
// extended again.
func (ls *lease) expiresBy() time.Time {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.latest
}

func leaseEnd(start time.Time, ttl time.Duration) time.Time {
	return start.Add(ttl - ttl/100 - time.Millisecond)
}

// joinLease returns the lease a new entry of the owner shares. A first
// entry (count 1: the lock was free or handed over) starts a new lease; the
// entries of an earlier one by the same token lost the lock in between.
func (c *Client) joinLease(key, token string, count int64) *lease {
	id := leaseID{key, token}
	c.mu.Lock()
	defer c.mu.Unlock()
	ls := c.leases[id]
	if ls == nil || count == 1 {
		ls = &lease{}
		c.leases[id] = ls
	}
	ls.refs++
	return ls
}

// leaveLease drops a released entry's reference to its lease.
func (c *Client) leaveLease(key, token string, ls *lease) {
	id := leaseID{key, token}
	c.mu.Lock()
	defer c.mu.Unlock()
	ls.refs--
	if ls.refs <= 0 && c.leases[id] == ls {
		delete(c.leases, id)
	}
}

func ttlMillis(what string, ttl time.Duration) (int64, error) {
	if ttl < time.Millisecond {
		return 0, invalidArg("%s %v is below 1ms", what, ttl)
	}
	return ttl.Milliseconds(), nil
}

func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("runtime: generating a lock token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

func lockKeys(key string) (fenceKey, queueKey string, err error) {
	if key == "" {
		return "", "", invalidArg("empty lock key")
	}
	queueKey = WakeKey(key)
	if err := SameSlot(key, queueKey); err != nil {
		return "", "", fmt.Errorf("lock key %q needs a hash tag so its wake-up queue shares its slot: %w", key, err)
	}
	return fencingKey(key), queueKey, nil
}

// wakeKey returns the wake-up list of the caller queued at place for the
// lock whose queue is queueKey: it blocks on it with BLPOP, and whoever
// reserves the lock for it pushes to it.
func wakeKey(queueKey string, place int64) string {
	return queueKey + ":" + strconv.FormatInt(place, 10)
}

// obtainRequest is one lock acquisition: by obtain.lua, or by
// lock_and_set.lua with the state write appended.
type obtainRequest struct {
	key      string
	fenceKey string
	queueKey string
	ttl      time.Duration
	ttlMS    int64
	token    string
	reentry  bool // the caller supplied the token: it may hold the lock already
	noWait   bool
	script   *Script
	lockKeys []string // key, fenceKey, queueKey: the keys of obtain.lua and release.lua
	keys     []string
	args     []any // the last three are the place in the queue (set per attempt), hold and window
	place    string
}

// Obtain takes the lock at key for ttl, waiting while another owner holds
// it until ctx ends. Each attempt is one script call. A caller that finds
// the lock held, or free with others queued for it, queues for it and
// blocks on a wake-up list of its own; a release hands the lock to the
// first caller queued (see Options.HandoffWindow), so callers get it in
// the order they first asked, and a releaser that asks again queues behind
// the others.
// Waits are bounded by the holder's remaining TTL, so a holder that died is
// replaced once its lock expires. Goroutines of this Client that wait for
// the same key take turns: one waits through Redis, the others in process,
// and a release through this Client hands over to that one directly.
// Concurrent attempts and releases of one Client share round trips.
//
// Errors: ErrInvalidArgument (empty key, ttl below 1ms), ErrCrossSlot (key
// without hash tag), ErrWrongType (key or its fencing counter holds other
// data; nothing written), ErrNotObtained (NoWait and held, or ctx ended while
// waiting; then it also wraps ctx's error).
func (c *Client) Obtain(ctx context.Context, key string, ttl time.Duration, opts *ObtainOptions) (*Lock, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	req, err := c.newObtainRequest(key, ttl, opts)
	if err != nil {
		c.hooks.ObtainDone(key, 0, 0, err)
		return nil, err
	}
	req.script = obtainScript
	req.keys = req.lockKeys
	req.args = []any{req.token, req.ttlMS, "-", c.queueHold(), c.handoffArg}
	req.place = "-"
	return c.obtain(ctx, req)
}

func (c *Client) newObtainRequest(key string, ttl time.Duration, opts *ObtainOptions) (*obtainRequest, error) {
	fenceKey, queueKey, err := lockKeys(key)
	if err != nil {
		return nil, err
	}
	ms, err := ttlMillis("lock TTL", ttl)
	if err != nil {
		return nil, err
	}
	req := &obtainRequest{key: key, fenceKey: fenceKey, queueKey: queueKey, ttl: ttl, ttlMS: ms,
		lockKeys: []string{key, fenceKey, queueKey}}
	if opts != nil {
		req.token = opts.Token
		req.reentry = opts.Token != ""
		req.noWait = opts.NoWait
	}
	if req.token == "" {
		if req.token, err = newToken(); err != nil {
			return nil, err
		}
	}
	return req, nil
}

func (c *Client) obtain(ctx context.Context, req *obtainRequest) (*Lock, error) {
	start := time.Now()
	attempts := 0
	done := func(l *Lock, err error) (*Lock, error) {
		c.hooks.ObtainDone(req.key, attempts, time.Since(start), err)
		return l, err
	}
	if err := ctx.Err(); err != nil {
		return done(nil, fmt.Errorf("%w: %q: %w", ErrNotObtained, req.key, err))
	}
	g := c.acquireGate(req.key)
	defer c.releaseGate(req.key, g)
	if req.reentry {
		// An owner re-entering must not queue behind a poller of this
		// Client that waits for the very lock the owner holds.
		attempts++
		l, r, err := c.attempt(ctx, req, "-")
		if l != nil {
			c.markHeld(l)
		}
		if l != nil || err != nil {
			return done(l, err)
		}
		c.wakeQueued(ctx, req.queueKey, r.wake)
		c.hooks.Contended(req.key, r.holderTTL)
		if req.noWait {
			return done(nil, fmt.Errorf("%w: %q is held by another owner", ErrNotObtained, req.key))
		}
	}
	select {
	case g.turn <- struct{}{}:
	case <-ctx.Done():
		return done(nil, fmt.Errorf("%w: %q: %w", ErrNotObtained, req.key, ctx.Err()))
	}
	c.setPolling(g, true)
	// place is this caller's place in the lock's queue: "-" when it does
	// not wait through Redis (NoWait, or a client that cannot block), "0"
	// until an attempt gives it one.
	place := "0"
	if _, ok := c.rdb.(blocker); req.noWait || !ok {
		place = "-"
	}
	var placeN int64
	defer func() {
		c.setPolling(g, false)
		<-g.turn
	}()
	// leave takes a caller that gives up out of the queue, so that no
	// release reserves the lock for it.
	leave := func() {
		if placeN > 0 {
			c.leaveQueue(req.queueKey, placeN)
		}
	}
	for {
		g.pending() // a release before this attempt is seen by it
		attempts++
		l, r, err := c.attempt(ctx, req, place)
		if l != nil {
			c.markHeld(l)
		}
		if l != nil || err != nil {
			if err != nil {
				leave()
				if ctx.Err() != nil {
					err = fmt.Errorf("%w: %q: %w", ErrNotObtained, req.key, err)
				}
			}
			return done(l, err)
		}
		c.wakeQueued(ctx, req.queueKey, r.wake)
		c.hooks.Contended(req.key, r.holderTTL)
		if req.noWait {
			return done(nil, fmt.Errorf("%w: %q is held by another owner", ErrNotObtained, req.key))
		}
		if place != "-" && r.place > 0 {
			placeN = r.place
			place = strconv.FormatInt(placeN, 10)
			c.mu.Lock()
			g.place = placeN
			c.mu.Unlock()
		}
		if err = c.wait(ctx, g, req.queueKey, placeN, attempts, r); err != nil {
			leave()
			return done(nil, fmt.Errorf("%w: %q: %w", ErrNotObtained, req.key, err))
		}
	}
}

func (c *Client) setPolling(g *gate, on bool) {
	c.mu.Lock()
	g.polling, g.place = on, 0
	c.mu.Unlock()
}

// blocker is what waiting on the wake-up list needs: all go-redis clients.
type blocker interface {
	Do(ctx context.Context, args ...any) *redis.Cmd
}

// wakeBackoffFactor stretches the backoff bound while waiting on a wake-up
// list: a release that finds callers queued hands the lock to the first of
// them and wakes it, so the timeout only matters when a holder dies or a
// hand-off goes to a waiter that died, and short timeouts would only add
// load. A queued caller asks again at least this often, which renews its
// place.
const wakeBackoffFactor = 16

// waitBound is the longest a queued caller waits between two attempts.
func (c *Client) waitBound() time.Duration {
	return c.maxBackoff * wakeBackoffFactor
}

// queueHold is how long, in milliseconds, a caller keeps its place in the
// queue after an attempt without asking again: twice the longest wait
// between attempts and a second more for round trips on a busy machine.
// A waiter that died leaves the queue that long after its last attempt.
func (c *Client) queueHold() int64 {
	return (2*c.waitBound() + time.Second).Milliseconds()
}

// wait returns after a backoff delay, or earlier when a release hands the
// lock over or frees it: through Redis (BLPOP on the caller's wake-up list,
// to which whoever reserves the lock for its place pushes) or through a
// release by this Client, which signals in process.
func (c *Client) wait(ctx context.Context, g *gate, queueKey string, place int64, attempt int, r obtainReply) error {
	// Release signals and stops counting as held here in one step under
	// c.mu, so this sees either the signal or the holder.
	c.mu.Lock()
	woken := g.pending()
	until, heldHere := g.heldHereUntil()
	c.mu.Unlock()
	if woken {
		return nil // a release here: try again at once
	}
	if heldHere {
		// The holder is in this process: its Release signals directly,
		// one round trip sooner than through Redis. The timeout only
		// matters if the holder lets its lock expire: then the lock is
		// free just after its lease, not a backoff later; and the caller
		// asks again within the wait bound to keep its place.
		return c.sleep(ctx, g, min(time.Until(until)+time.Millisecond, c.waitBound()))
	}
	if b, ok := c.rdb.(blocker); ok && place > 0 {
		d := c.blockFor(r)
		// BLPOP takes seconds with millisecond precision; round up so a
		// short delay does not become 0, which would block forever.
		ms := max(d.Milliseconds(), 1)
		wake := wakeKey(queueKey, place)
		err := c.blpop(ctx, g, b, wake, time.Duration(ms)*time.Millisecond)
		switch {
		case err == nil || err == redis.Nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case redis.HasErrorPrefix(err, "WRONGTYPE"):
			return fmt.Errorf("%w: wake-up key %q", ErrWrongType, wake)
		default:
			// The wait is an optimisation: on a failure fall back to
			// sleeping, and let the next attempt report a real problem.
		}
	}
	return c.sleep(ctx, g, c.backoff(attempt, r.holderTTL, c.maxBackoff))
}

// blpopLate is how long after its timeout a BLPOP is given up locally.
const blpopLate = 2 * time.Millisecond

// blpop runs BLPOP on a wake-up list for d and returns when it answers,
// when a release by this Client signals g (the lock may have been reserved
// for the caller's place and handed over in process), when ctx ends or
// shortly after d, whichever is first: go-redis bounds a
// blocking command by its timeout, not by the context (cancel took up to
// the whole BLPOP, ~0.5s), and an idle Redis notices a blocked client's
// timeout only at its next cron tick (every 100ms at the default hz), so a
// waiter took over a lock that expired ~100ms late. Giving up after d
// counts as a timeout (redis.Nil). The BLPOP it gave up still runs: a
// wake-up it pops later goes back on the list, for the caller's next
// BLPOP (or to expire with the list when the caller has left).
func (c *Client) blpop(ctx context.Context, g *gate, b blocker, wake string, d time.Duration) error {
	ch := make(chan error, 1)
	go func() {
		timeout := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
		ch <- b.Do(ctx, "BLPOP", wake, timeout).Err()
	}()
	late := time.NewTimer(d + blpopLate)
	defer late.Stop()
	var err error
	select {
	case err := <-ch:
		return err
	case <-late.C:
		err = redis.Nil
	case <-g.wake:
	case <-ctx.Done():
		err = ctx.Err()
	}
	go func() {
		if <-ch == nil {
			c.pushWake(ctx, wake)
		}
	}()
	return err
}

// wakeQueued pushes to the wake-up list of the caller queued at place, for
// which a release or an attempt reserved the lock (place 0: none). The list
// expires with the reservation. The push is sent even when ctx has ended:
// the reservation is made, and without it the waiter would notice only at
// its next attempt.
func (c *Client) wakeQueued(ctx context.Context, queueKey string, place int64) {
	if place <= 0 {
		return
	}
	c.pushWake(ctx, wakeKey(queueKey, place))
}

// pushWake pushes to the wake-up list wake, which expires after the
// hand-off window.
func (c *Client) pushWake(ctx context.Context, wake string) {
	window, _ := c.handoffArg.(int64)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	switch p := c.rdb.(type) {
	case interface {
		Pipelined(context.Context, func(redis.Pipeliner) error) ([]redis.Cmder, error)
	}:
		// One round trip; no MULTI: the PEXPIRE only bounds how long a
		// push that nobody pops stays.
		p.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.RPush(ctx, wake, 1)
			pipe.PExpire(ctx, wake, time.Duration(window)*time.Millisecond)
			return nil
		})
	case blocker:
		if p.Do(ctx, "RPUSH", wake, 1).Err() == nil {
			p.Do(ctx, "PEXPIRE", wake, window)
		}
	}
}

// leaveQueue takes the caller queued at place out of the lock's queue.
// Should a release have reserved the lock for it meanwhile, the
// reservation lapses after the hand-off window.
func (c *Client) leaveQueue(queueKey string, place int64) {
	b, ok := c.rdb.(blocker)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	p := strconv.FormatInt(place, 10)
	b.Do(ctx, "ZREMRANGEBYSCORE", queueKey, p, p)
}

// blockFor returns how long to block on the wake-up list. While the lock
// is reserved for the caller right ahead of this one, until the
// reservation ends: if that caller died, this one asks again then, and
// takes the lock (or reserves it for the next caller still waiting).
// Otherwise until the holder's lease ends, at most the wait bound: the
// release wakes the caller before, unless the holder died. (A
// reservation's TTL is the window, not the next holder's lease.) The
// delay is drawn from the upper half of the bound so that waiters do not
// all ask again at once.
func (c *Client) blockFor(r obtainReply) time.Duration {
	bound := c.waitBound()
	if r.reserved && r.ahead <= 1 && r.holderTTL >= 0 {
		return min(r.holderTTL+time.Millisecond, bound)
	}
	if !r.reserved && r.holderTTL >= 0 && r.holderTTL+time.Millisecond < bound {
		bound = r.holderTTL + time.Millisecond
	}
	return bound/2 + mrand.N(bound/2+1)
}

// sleep waits for d, a release by this Client, or the end of ctx.
func (c *Client) sleep(ctx context.Context, g *gate, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-g.wake:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// markHeld counts l as held in process until its Release.
func (c *Client) markHeld(l *Lock) {
	l.gate = c.acquireGate(l.key)
	c.mu.Lock()
	l.gate.held++
	l.gate.lease = l.lease
	c.mu.Unlock()
}

// heldHereUntil tells whether the lock of g is held through this Client
// and, if so, when Redis drops it at the latest. A holder here that lets
// its lease run out (it died without Release) no longer counts once the
// lease is over: its waiters then ask Redis, as other Clients' do. Called
// with c.mu held.
func (g *gate) heldHereUntil() (time.Time, bool) {
	if g.held <= 0 || g.lease == nil {
		return time.Time{}, false
	}
	end := g.lease.expiresBy()
	return end, time.Now().Before(end)
}

// backoff returns the full-jitter delay before attempt+1: uniform below
// min(MinBackoff·2^(attempt-1), maxDelay, holderTTL).
func (c *Client) backoff(attempt int, holderTTL, maxDelay time.Duration) time.Duration {
	bound := maxDelay
	if shift := attempt - 1; shift < 32 {
		if b := c.minBackoff << shift; b > 0 && b < bound {
			bound = b
		}
	}
	if holderTTL > 0 && holderTTL < bound {
		bound = holderTTL
	}
	return mrand.N(bound) + 1
}

// attempt makes one script call with the caller's place in the queue; it
// returns the lock, or the reply that says who holds it.
func (c *Client) attempt(ctx context.Context, req *obtainRequest, place string) (*Lock, obtainReply, error) {
	if place != req.place {
		req.place, req.args[len(req.args)-3] = place, place
	}
	start := time.Now()
	reply, err := c.runBatchedCall(ctx, &batchCall{
		Call:      Call{Script: req.script, Keys: req.keys, Args: req.args},
		abandoned: func(reply any, err error) { c.releaseAbandoned(req, reply, err) },
	})
	if err != nil {
		return nil, obtainReply{}, fmt.Errorf("obtaining %q: %w", req.key, err)
	}
	r, err := parseObtainReply(reply)
	if err != nil {
		return nil, obtainReply{}, fmt.Errorf("obtaining %q: %w", req.key, err)
	}
	if !r.acquired {
		return nil, r, nil
	}
	ls := c.joinLease(req.key, req.token, r.count)
	ls.extend(start, r.lease)
	return &Lock{
		c:        c,
		key:      req.key,
		fenceKey: req.fenceKey,
		queueKey: req.queueKey,
		keys:     req.lockKeys,
		token:    req.token,
		tokenArg: req.args[0],
		fence:    r.fence,
		count:    r.count,
		ttl:      req.ttl,
		lease:    ls,
	}, obtainReply{}, nil
}

// releaseAbandoned undoes what an attempt did after its caller had left
// (its context ended while the call was in flight), which nobody else
// knows of: it releases an entry the attempt took, which would otherwise
// stay taken for its whole TTL; takes a place the attempt got out of the
// queue, so that no release reserves the lock for a caller that is gone;
// and wakes the caller the attempt reserved the lock for, which would
// otherwise only notice at its next attempt, after the window.
func (c *Client) releaseAbandoned(req *obtainRequest, reply any, err error) {
	if err != nil {
		return
	}
	r, err := parseObtainReply(reply)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), req.ttl)
	defer cancel()
	if !r.acquired {
		c.wakeQueued(ctx, req.queueKey, r.wake)
		if r.place > 0 {
			c.leaveQueue(req.queueKey, r.place)
		}
		return
	}
	if reply, err := c.runBatched(ctx, releaseScript, req.lockKeys, req.token, c.handoffArg); err == nil {
		if _, _, place, err := parseReleaseReply(reply); err == nil {
			c.wakeQueued(ctx, req.queueKey, place)
		}
	}
}

// Refresh extends the lock's lease to at least ttl from now; it never
// shortens it (see Deadline), and later KeepAlive renewals of this entry
// use ttl. It fails with ErrLockLost, changing nothing, when this owner no
// longer holds the lock or this entry was released.
func (l *Lock) Refresh(ctx context.Context, ttl time.Duration) error {
	ms, err := ttlMillis("lock TTL", ttl)
	if err != nil {
		return err
	}
	if err := l.usable(ctx); err != nil {
		return err
	}
	return l.refresh(ctx, ttl, ms)
}

// usable fails before any round trip when the context is done or this entry
// was released: a released entry must never act on the lock again.
func (l *Lock) usable(ctx context.Context) error {
	if err := l.obtained(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	released := l.released
	l.mu.Unlock()
	if released {
		return fmt.Errorf("%w: %q was released", ErrLockLost, l.key)
	}
	return nil
}

func (l *Lock) refresh(ctx context.Context, ttl time.Duration, ms int64) error {
	start := time.Now()
	reply, err := l.c.run(ctx, refreshScript, []string{l.key}, l.token, ms)
	if err != nil {
		return fmt.Errorf("refreshing %q: %w", l.key, err)
	}
	held, left, err := parseRefreshReply(reply)
	if err != nil {
		return fmt.Errorf("refreshing %q: %w", l.key, err)
	}
	if !held {
		return fmt.Errorf("%w: %q expired or has another owner", ErrLockLost, l.key)
	}
	l.mu.Lock()
	l.ttl = ttl
	l.mu.Unlock()
	l.lease.extend(start, left)
	return nil
}

// Release leaves this entry of the lock; the owner's last entry deletes it.
// Call it for every obtained entry, also after the lock was lost: the Client
// counts the entry as held in process until then.
// It stops this entry's KeepAlive first, so no renewal follows a release. It
// fails with ErrLockLost, changing nothing in Redis, when the lock expired or
// was taken over, or this entry was already released.
func (l *Lock) Release(ctx context.Context) error {
	if err := l.obtained(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	if l.released {
		l.mu.Unlock()
		return fmt.Errorf("%w: %q was already released", ErrLockLost, l.key)
	}
	stop := l.stopWatch
	l.stopWatch = nil
	l.mu.Unlock()
	if stop != nil {
		stop()
	}
	keys, token := l.keys, l.tokenArg
	if keys == nil {
		keys = []string{l.key, l.fenceKey, l.queueKey}
	}
	if token == nil {
		token = l.token
	}
	reply, err := l.c.runBatched(ctx, releaseScript, keys, token, l.c.handoffArg)
	if err != nil {
		return fmt.Errorf("releasing %q: %w", l.key, err)
	}
	n, _, place, err := parseReleaseReply(reply)
	if err != nil {
		return fmt.Errorf("releasing %q: %w", l.key, err)
	}
	l.mu.Lock()
	l.released = true
	l.mu.Unlock()
	if l.lease != nil {
		l.c.leaveLease(l.key, l.token, l.lease)
	}
	// A poller of this Client for whose place the release reserved the
	// lock gets it in process, one round trip sooner than through its
	// wake-up list; any other waiter is woken through Redis.
	if _, local := l.c.localPoller(l.key); place != local {
		l.c.wakeQueued(ctx, l.queueKey, place)
	}
	if l.gate != nil {
		// The poller sees the release no later than the lock stops
		// counting as held here, so it never waits out a lease that is
		// over.
		l.c.mu.Lock()
		if n <= 0 {
			l.gate.notify()
		}
		l.gate.held--
		if l.gate.held == 0 {
			l.gate.lease = nil
		}
		l.c.mu.Unlock()
		l.c.releaseGate(l.key, l.gate)
	} else if n <= 0 {
		l.c.notifyReleased(l.key)
	}
	if n < 0 {
		return fmt.Errorf("%w: %q expired or has another owner", ErrLockLost, l.key)
	}
	return nil
}

// KeepAliveOptions tune KeepAlive. nil means the defaults.
type KeepAliveOptions struct {
	// Interval between renewals; default a third of the lock's TTL.
	Interval time.Duration

	// MaxHold bounds the time the watchdog keeps the lock from the call to
	// KeepAlive; zero means no bound. When it is reached the returned
	// context is cancelled with cause ErrMaxHold and renewals stop; the lock
	// then expires after its TTL unless released.
	MaxHold time.Duration
}

// KeepAlive starts a watchdog that renews the lock to its current TTL every
// Interval until Release, until ctx ends or until MaxHold. It returns a
// context derived from ctx that is cancelled the moment the lock is known to
// be lost, with cause ErrLockLost (see context.Cause): when a renewal finds
// another owner, or when the lease passes Deadline without a successful
// renewal (Redis unreachable or paused). Work guarded by the lock should run
// under that context. Release cancels it too. One watchdog per entry.
func (l *Lock) KeepAlive(ctx context.Context, opts *KeepAliveOptions) (context.Context, error) {
	var o KeepAliveOptions
	if opts != nil {
		o = *opts
	}
	if err := l.obtained(); err != nil {
		return nil, err
	}
	if o.Interval < 0 || o.MaxHold < 0 {
		return nil, invalidArg("negative KeepAlive interval or maximum hold")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil, fmt.Errorf("%w: %q was released", ErrLockLost, l.key)
	}
	if l.watching {
		return nil, invalidArg("lock %q already has a KeepAlive watchdog", l.key)
	}
	if o.Interval == 0 {
		o.Interval = l.ttl / 3
	}
	if o.Interval < time.Millisecond {
		o.Interval = time.Millisecond
	}
	kctx, cancel := context.WithCancelCause(ctx)
	// watchCtx ends the watchdog and aborts a renewal in flight; Release
	// cancels it and waits for the watchdog to exit before releasing.
	watchCtx, stopWatch := context.WithCancel(kctx)
	exited := make(chan struct{})
	var maxHold time.Time
	if o.MaxHold > 0 {
		maxHold = time.Now().Add(o.MaxHold)
	}
	l.watching = true
	l.stopWatch = func() {
		stopWatch()
		<-exited
		cancel(context.Canceled)
	}
	go func() {
		defer close(exited)
		l.watch(watchCtx, cancel, o.Interval, maxHold)
	}()
	return kctx, nil
}

func (l *Lock) watch(ctx context.Context, cancel context.CancelCauseFunc, interval time.Duration, maxHold time.Time) {
	hooks := l.c.hooks
	next := time.Now().Add(interval)
	for {
		l.mu.Lock()
		ttl := l.ttl
		l.mu.Unlock()
		validUntil := l.lease.deadline()
		wake := next
		if validUntil.Before(wake) {
			wake = validUntil
		}
		if !maxHold.IsZero() && maxHold.Before(wake) {
			wake = maxHold
		}
		t := time.NewTimer(time.Until(wake))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		now := time.Now()
		if !maxHold.IsZero() && !now.Before(maxHold) {
			cancel(fmt.Errorf("%w: %q", ErrMaxHold, l.key))
			return
		}
		if !now.Before(validUntil) {
			err := fmt.Errorf("%w: %q: lease ran out before a renewal succeeded", ErrLockLost, l.key)
			hooks.LockLost(l.key, err)
			cancel(err)
			return
		}
		if now.Before(next) {
			continue
		}
		// The renewal may take at most the rest of the lease: after that
		// the lock counts as lost whatever the reply.
		rctx, rcancel := context.WithDeadline(ctx, validUntil)
		err := l.refresh(rctx, ttl, ttl.Milliseconds())
		rcancel()
		if ctx.Err() != nil {
			return // released or the caller's context ended
		}
		switch {
		case err == nil:
			next = time.Now().Add(interval)
		case errors.Is(err, ErrLockLost) || errors.Is(err, ErrWrongType):
			hooks.LockLost(l.key, err)
			cancel(err)
			return
		default:
			hooks.RenewFailed(l.key, err)
			// Retry soon, but not in a tight loop.
			next = time.Now().Add(min(interval, time.Until(validUntil)/4+time.Millisecond))
		}
	}
}
