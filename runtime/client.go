package runtime

import (
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

	mu    sync.Mutex
	gates map[string]*gate
}

// New returns a Client on rdb. opts may be nil.
func New(rdb redis.Scripter, opts *Options) *Client {
	c := &Client{
		rdb:        rdb,
		hooks:      NopHooks{},
		minBackoff: time.Millisecond,
		maxBackoff: 32 * time.Millisecond,
		gates:      map[string]*gate{},
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
		if c.maxBackoff < c.minBackoff {
			c.maxBackoff = c.minBackoff
		}
	}
	return c
}

// gate lets one goroutine per key and Client poll Redis for a lock while the
// others wait in process; a release by this Client wakes the poller at once.
type gate struct {
	refs int           // guarded by Client.mu
	held int           // this Client's unreleased locks on the key; guarded by Client.mu
	turn chan struct{} // capacity 1: holding the token means polling
	wake chan struct{} // capacity 1: a local release happened
}

func (c *Client) acquireGate(key string) *gate {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.gates[key]
	if g == nil {
		g = &gate{turn: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
		c.gates[key] = g
	}
	g.refs++
	return g
}

func (c *Client) releaseGate(key string, g *gate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g.refs--
	if g.refs == 0 {
		delete(c.gates, key)
	}
}

// notifyReleased wakes this Client's poller for key, if any.
func (c *Client) notifyReleased(key string) {
	c.mu.Lock()
	g := c.gates[key]
	c.mu.Unlock()
	if g != nil {
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
}
