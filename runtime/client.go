package runtime

import (
	"reflect"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Options configure a Client. The zero value is usable.
type Options struct {
	// Hooks receives events for metrics; nil means none.
	Hooks Hooks

	// MinBackoff is the first retry delay bound of Obtain (default 1ms).
	// Attempt n waits a random time in [0, min(MinBackoff·2ⁿ⁻¹, MaxBackoff,
	// holder's remaining TTL)) ("full jitter").
	MinBackoff time.Duration

	// MaxBackoff caps the retry delay of Obtain (default 32ms).
	MaxBackoff time.Duration

	// HandoffWindow bounds how long a release that found callers queued
	// keeps the lock reserved for the one it wakes (default 100ms): the
	// lock is theirs if they claim it within the window, and free for
	// anyone after it. A caller that asks during the reservation with
	// nobody else queued waits for the window only, so a waiter that died
	// holds it up no longer; callers queued behind others keep their place
	// and wait for the hand-off as long as they would behind a holder.
	HandoffWindow time.Duration
}

// Client runs the package's operations over a go-redis client:
// *redis.Client, *redis.ClusterClient or *redis.Ring (any redis.Scripter).
// It is safe for concurrent use. Goroutines of one Client that wait for the
// same lock share one poller, so a Client per process (not per goroutine) is
// the intended use.
type Client struct {
	rdb        redis.Scripter
	hooks      Hooks
	minBackoff time.Duration
	maxBackoff time.Duration
	handoffArg any // the hand-off window in milliseconds, for release.lua

	mu     sync.Mutex
	gates  map[string]*gate
	leases map[leaseID]*lease // the lease of each lock held through this Client

	// batchers share round trips between concurrent calls, one per shard;
	// guarded by mu.
	batchers map[shardKey]*batcher
	sweepAt  int       // the size of batchers from which adding one sweeps it
	swept    time.Time // when batchers was last swept
	// batcherIdle is how long a batcher goes unused before a sweep may
	// take it out of batchers (defaultBatcherIdle; tests shorten it).
	batcherIdle time.Duration
	// ctxDeadlines: the go-redis client applies a context's deadline to
	// its socket reads and writes (ContextTimeoutEnabled).
	ctxDeadlines bool
}

// New returns a Client on rdb. opts may be nil.
//
// rdb is usually a *redis.Client, *redis.ClusterClient or *redis.Ring.
// Every operation needs EVALSHA and EVAL (redis.Scripter). Beyond that the
// Client uses what rdb offers: a Pipeline method (redis.Pipeliner) for
// sharing round trips between concurrent calls and for RunPipelined and
// UpdateMany, which fail with ErrInvalidArgument without it; a Do method for
// BLPOP, through which a waiting Obtain blocks on the lock's wake-up list
// instead of polling with backoff; and redis.Cmdable for Drain (SPOP,
// MGET, SADD). The three go-redis clients have all of them. A nil rdb
// (also a nil pointer of a client type) gives a Client whose every
// operation fails with ErrInvalidArgument.
func New(rdb redis.Scripter, opts *Options) *Client {
	if isNil(rdb) {
		rdb = nil
	}
	c := &Client{
		rdb:         rdb,
		hooks:       NopHooks{},
		minBackoff:  time.Millisecond,
		maxBackoff:  32 * time.Millisecond,
		handoffArg:  int64(100),
		gates:       map[string]*gate{},
		leases:      map[leaseID]*lease{},
		batcherIdle: defaultBatcherIdle,
	}
	switch r := rdb.(type) {
	case *redis.Client:
		c.ctxDeadlines = r.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		c.ctxDeadlines = r.Options().ContextTimeoutEnabled
	case *redis.Ring:
		c.ctxDeadlines = r.Options().ContextTimeoutEnabled
	}
	if opts != nil {
		if opts.Hooks != nil {
			c.hooks = opts.Hooks
		}
		if opts.MinBackoff > 0 {
			c.minBackoff = opts.MinBackoff
		}
		if opts.MaxBackoff > 0 {
			c.maxBackoff = opts.MaxBackoff
		}
		if opts.HandoffWindow >= time.Millisecond {
			c.handoffArg = opts.HandoffWindow.Milliseconds()
		}
		if c.maxBackoff < c.minBackoff {
			c.maxBackoff = c.minBackoff
		}
	}
	return c
}

func isNil(rdb redis.Scripter) bool {
	if rdb == nil {
		return true
	}
	v := reflect.ValueOf(rdb)
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// ready fails, before any round trip, for a Client that cannot run an
// operation: a nil *Client, a zero Client not made by New, or one made on a
// nil go-redis client.
func (c *Client) ready() error {
	if c == nil || c.rdb == nil || c.gates == nil {
		return invalidArg("the Client has no go-redis client: make it with New on a non-nil client")
	}
	return nil
}

// gate lets one goroutine per key and Client poll Redis for a lock while the
// others wait in process; a release by this Client wakes the poller at once,
// and hands the lock over to it in process when the release reserved the
// lock for the poller's place.
type gate struct {
	refs    int           // guarded by Client.mu
	held    int           // this Client's unreleased locks on the key; guarded by Client.mu
	lease   *lease        // the lease of the latest of them; guarded by Client.mu
	polling bool          // a goroutine holds the turn; guarded by Client.mu
	place   int64         // the poller's place in the lock's queue, 0 when none; guarded by Client.mu
	turn    chan struct{} // capacity 1: holding the token means polling
	wake    chan struct{} // capacity 1: a local release happened
}

// gates are reused: a lock taken and released without contention would
// otherwise cost a gate and its two channels each time.
var gatePool = sync.Pool{New: func() any {
	return &gate{turn: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
}}

func (c *Client) acquireGate(key string) *gate {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.gates[key]
	if g == nil {
		g = gatePool.Get().(*gate)
		c.gates[key] = g
	}
	g.refs++
	return g
}

// releaseGate drops one reference to g; nothing may use g after its last.
func (c *Client) releaseGate(key string, g *gate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g.refs--
	if g.refs == 0 {
		delete(c.gates, key)
		// Nobody holds g now, so its turn is free and a signal left in it
		// belongs to the lock that is gone.
		g.held, g.polling, g.lease, g.place = 0, false, nil, 0
		g.pending()
		gatePool.Put(g)
	}
}

// localPoller returns the gate of key when a goroutine of this Client polls
// for it, with the poller's place in the lock's queue (0 when it has none):
// a release that reserves the lock for that place hands it over in process
// rather than through the place's wake-up list. (While the lock is held in
// this process the poller waits for that, not on its wake-up list; see
// Client.wait.)
func (c *Client) localPoller(key string) (g *gate, place int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g := c.gates[key]; g != nil && g.polling {
		return g, g.place
	}
	return nil, 0
}

// notifyReleased wakes this Client's poller for key, if any.
func (c *Client) notifyReleased(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g := c.gates[key]; g != nil {
		g.notify()
	}
}

func (g *gate) notify() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// pending reports, and consumes, a signal from a release by this Client
// that the poller has not seen yet.
func (g *gate) pending() (woken bool) {
	select {
	case <-g.wake:
		return true
	default:
		return false
	}
}
