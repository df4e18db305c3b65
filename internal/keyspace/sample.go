package keyspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/slot"
)

// Options bound and direct a run. Zero fields take the defaults below.
type Options struct {
	// Seeds are redis://, rediss:// URLs or host:port addresses of a
	// standalone server or of any nodes of one cluster; the first that
	// answers is asked for the cluster's shards.
	Seeds []string
	// Replicas scans one online replica of each shard instead of its master
	// (READONLY is sent first), and refuses a standalone server that is a
	// master: the mode for a production cluster whose masters must not
	// carry the load.
	Replicas bool
	// BudgetKeys caps the keys taken into the sample across all nodes.
	BudgetKeys int
	// TimeBudget caps the whole run; the report is partial when it ends
	// the scan.
	TimeBudget time.Duration
	// Count is the COUNT of each SCAN call: how many hash-table buckets the
	// server visits per call, so how long each call holds it.
	Count int
	// CallTimeout bounds each call to a server.
	CallTimeout time.Duration
	// MemorySamples caps the keys per family (or unmatched prefix) whose
	// MEMORY USAGE is asked; the family's memory is their mean times its
	// estimated keys.
	MemorySamples int
	// HotShare is the share of the keyspace's keys or memory from which a
	// family that lies in one slot or one shard is flagged.
	HotShare float64
	// Progress receives a line about every ProgressEvery while nodes are
	// scanned; nil for none.
	Progress      io.Writer
	ProgressEvery time.Duration
	// Hooks are added to every client the run opens (tracing, counting).
	Hooks []redis.Hook
}

// Defaults of Options.
const (
	DefaultBudgetKeys    = 100_000
	DefaultTimeBudget    = time.Minute
	DefaultCount         = 100
	DefaultCallTimeout   = 2 * time.Second
	DefaultMemorySamples = 50
	DefaultHotShare      = 0.10
)

// concentrated is the share of a family's sampled keys in one slot (or on
// one master) from which the family is said to lie there.
const concentrated = 0.9

// OptionError is an option out of range.
type OptionError struct {
	Option string
	Reason string
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Reason }

// ErrTimeBudget is the cause of a run's context when its time budget ends.
var ErrTimeBudget = errors.New("time budget reached")

func (o *Options) withDefaults() (Options, error) {
	r := *o
	if len(r.Seeds) == 0 {
		return r, &OptionError{"seeds", "no Redis address"}
	}
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{{"key budget", &r.BudgetKeys, DefaultBudgetKeys}, {"count", &r.Count, DefaultCount}, {"memory samples", &r.MemorySamples, DefaultMemorySamples}} {
		switch {
		case *f.v == 0:
			*f.v = f.def
		case *f.v < 0:
			return r, &OptionError{f.name, "must be positive, is " + strconv.Itoa(*f.v)}
		}
	}
	if r.TimeBudget < 0 || r.CallTimeout < 0 || r.ProgressEvery < 0 {
		return r, &OptionError{"time", "durations must not be negative"}
	}
	if r.TimeBudget == 0 {
		r.TimeBudget = DefaultTimeBudget
	}
	if r.CallTimeout == 0 {
		r.CallTimeout = DefaultCallTimeout
	}
	if r.ProgressEvery == 0 {
		r.ProgressEvery = time.Second
	}
	switch {
	case r.HotShare == 0:
		r.HotShare = DefaultHotShare
	case r.HotShare < 0 || r.HotShare > 1 || math.IsNaN(r.HotShare):
		return r, &OptionError{"hot share", "must be between 0 and 1"}
	}
	return r, nil
}

// Run samples the keyspace of the servers opts names and matches each
// sampled key to m's families. It returns an error only when nothing could
// be sampled (bad options, no seed answered); a node that fails, the time
// budget and cancellation of ctx (an interrupt) end in a partial report
// that says why.
func Run(ctx context.Context, opts Options, m *Matcher) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(ctx, o.TimeBudget, ErrTimeBudget)
	defer cancel()
	topo, err := discover(ctx, &o)
	if err != nil {
		if runEnded(ctx) {
			return nil, fmt.Errorf("before any node answered: %w", stopReason(ctx, parent, o))
		}
		return nil, err
	}
	s := &sampler{opts: &o, matcher: m, memTaken: map[string]int{}}
	for _, n := range topo.nodes {
		s.nodes = append(s.nodes, &nodeRun{node: n})
	}
	s.run(ctx)
	rep := s.report(topo)
	if runEnded(ctx) {
		rep.Partial = true
		rep.PartialReasons = append(rep.PartialReasons, stopReason(ctx, parent, o).Error())
	}
	return rep, nil
}

// stopReason tells an interrupt from the end of the time budget.
func stopReason(ctx, parent context.Context, o Options) error {
	if parent.Err() != nil {
		return errors.New("interrupted: the report covers the keys sampled until then")
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, ErrTimeBudget) {
		return cause
	}
	return fmt.Errorf("the time budget of %v ended the scan", o.TimeBudget)
}

type sampler struct {
	opts    *Options
	matcher *Matcher
	nodes   []*nodeRun
	sampled atomic.Int64 // keys taken into the sample, all nodes

	mu       sync.Mutex
	memTaken map[string]int // MEMORY USAGE calls per group
}

// nodeRun is the scan of one node.
type nodeRun struct {
	node
	dbsize      int64
	version     string
	slotOrdered bool // the server scans a cluster node slot by slot
	budget      int
	sampled     int // keys taken into the sample
	vanished    int // sampled keys gone before TYPE saw them
	complete    bool
	unanswered  bool // the run ended before DBSIZE came back
	done        atomic.Bool
	err         error
	groups      map[groupKey]*acc
}

// groupKey is a family, or an unmatched prefix.
type groupKey struct {
	name    string
	matched bool
}

// acc accumulates one group's sampled keys on one node.
type acc struct {
	seen    int
	ttl     int
	memSum  int64
	memN    int
	slots   map[int]int
	types   map[string]int
	example string
}

func (s *sampler) run(ctx context.Context) {
	// DBSIZE of every node first: the budget is spread in proportion.
	var wg sync.WaitGroup
	for _, n := range s.nodes {
		wg.Go(func() { n.size(ctx, s.opts) })
	}
	wg.Wait()
	s.allot()
	stop := s.progress(ctx)
	for _, n := range s.nodes {
		if n.err == nil {
			wg.Go(func() { defer n.done.Store(true); s.scan(ctx, n) })
		} else {
			n.done.Store(true)
		}
	}
	wg.Wait()
	stop()
}

func (n *nodeRun) client(o *Options) *redis.Client {
	return newClient(clientOptions(n.opts, n.addr, o.CallTimeout, n.master != ""), o.Hooks)
}

// size reads the node's DBSIZE and version.
func (n *nodeRun) size(ctx context.Context, o *Options) {
	c := n.client(o)
	defer c.Close()
	type sized struct {
		db   int64
		info string
	}
	r, err := call(ctx, o.CallTimeout, func(ctx context.Context) (sized, error) {
		var db *redis.IntCmd
		var info *redis.StringCmd
		_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
			db = p.DBSize(ctx)
			info = p.Info(ctx, "server")
			return nil
		})
		return sized{db.Val(), info.Val()}, err
	})
	if err != nil {
		n.fail(ctx, err)
		n.unanswered = n.err == nil
		return
	}
	n.dbsize = r.db
	f := infoFields(r.info)
	n.version = f["redis_version"]
	n.slotOrdered = n.slots != nil && slotOrderedScan(f)
}

// slotOrderedScan reports whether a cluster node keeps one hash table per
// slot, so SCAN returns the keys slot by slot: Redis 7.4 and later, Valkey 8
// and later.
func slotOrderedScan(info map[string]string) bool {
	if v, ok := info["valkey_version"]; ok {
		return versionAtLeast(v, 8, 0)
	}
	return versionAtLeast(info["redis_version"], 7, 4)
}

func versionAtLeast(v string, major, minor int) bool {
	f := strings.SplitN(v, ".", 3)
	if len(f) < 2 {
		return false
	}
	a, err1 := strconv.Atoi(f[0])
	b, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return a > major || a == major && b >= minor
}

// fail records a node's error, unless the run itself has ended: then the
// call failed because of the deadline or the interrupt, not the node.
func (n *nodeRun) fail(ctx context.Context, err error) {
	if !runEnded(ctx) {
		n.err = err
	}
}

// runEnded reports whether the run's context is done or past its
// deadline. A call cut by the run's deadline can return its i/o timeout a
// moment before the context's own timer marks it done.
func runEnded(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// allot spreads the key budget over the nodes in proportion to their
// DBSIZE (largest remainders get the leftover keys), so every node's
// sample is the same fraction of its keys.
func (s *sampler) allot() {
	var total int64
	for _, n := range s.nodes {
		if n.err == nil {
			total += n.dbsize
		}
	}
	if total == 0 {
		return
	}
	budget := s.opts.BudgetKeys
	if int64(budget) >= total {
		for _, n := range s.nodes {
			if n.err == nil {
				// Room for keys written since DBSIZE, within the budget.
				n.budget = int(n.dbsize + (int64(budget)-total)*n.dbsize/total)
			}
		}
		return
	}
	type share struct {
		n   *nodeRun
		rem float64
	}
	var shares []share
	left := budget
	for _, n := range s.nodes {
		if n.err != nil {
			continue
		}
		exact := float64(budget) * float64(n.dbsize) / float64(total)
		n.budget = int(exact)
		left -= n.budget
		shares = append(shares, share{n, exact - float64(n.budget)})
	}
	slices.SortStableFunc(shares, func(a, b share) int {
		switch {
		case a.rem > b.rem:
			return -1
		case a.rem < b.rem:
			return 1
		}
		return 0
	})
	for i := 0; left > 0 && len(shares) > 0; i = (i + 1) % len(shares) {
		shares[i].n.budget++
		left--
	}
}

// scan walks the node's keyspace with SCAN until its budget is used, the
// cursor comes back to 0, or the run ends.
func (s *sampler) scan(ctx context.Context, n *nodeRun) {
	c := n.client(s.opts)
	defer c.Close()
	n.groups = map[groupKey]*acc{}
	taken := map[string]bool{} // SCAN may return a key twice
	var cursor uint64
	for n.sampled < n.budget {
		if runEnded(ctx) {
			return
		}
		remaining := n.budget - n.sampled
		type page struct {
			keys []string
			next uint64
		}
		pg, err := call(ctx, s.opts.CallTimeout, func(ctx context.Context) (page, error) {
			keys, next, err := c.Scan(ctx, cursor, "", int64(min(s.opts.Count, remaining))).Result()
			return page{keys, next}, err
		})
		if err != nil {
			n.fail(ctx, fmt.Errorf("SCAN: %w", err))
			return
		}
		// COUNT is a hint: a reply may carry more names than asked. Those
		// beyond the budget are dropped without a look.
		var batch []string
		dropped := false
		for _, k := range pg.keys {
			if taken[k] {
				continue
			}
			if len(batch) == remaining {
				dropped = true
				break
			}
			taken[k] = true
			batch = append(batch, k)
		}
		if err := s.inspect(ctx, c, n, batch); err != nil {
			n.fail(ctx, err)
			return
		}
		cursor = pg.next
		if cursor == 0 {
			n.complete = !dropped
			return
		}
	}
}

// inspect asks TYPE and PTTL of each key (and MEMORY USAGE of some) in one
// pipeline, then files each key under its family or unmatched prefix.
func (s *sampler) inspect(ctx context.Context, c *redis.Client, n *nodeRun, batch []string) error {
	if len(batch) == 0 {
		return nil
	}
	type probe struct {
		key   string
		group groupKey
		typ   *redis.StatusCmd
		pttl  *redis.Cmd
		mem   *redis.IntCmd
	}
	probes := make([]probe, len(batch))
	for i, k := range batch {
		probes[i] = probe{key: k, group: s.group(k)}
	}
	s.mu.Lock()
	wantMem := make([]bool, len(batch))
	for i, p := range probes {
		if s.memTaken[p.group.String()] < s.opts.MemorySamples {
			s.memTaken[p.group.String()]++
			wantMem[i] = true
		}
	}
	s.mu.Unlock()
	_, err := call(ctx, s.opts.CallTimeout, func(ctx context.Context) ([]redis.Cmder, error) {
		return c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i := range probes {
				probes[i].typ = p.Type(ctx, probes[i].key)
				probes[i].pttl = p.Do(ctx, "pttl", probes[i].key)
				if wantMem[i] {
					probes[i].mem = p.MemoryUsage(ctx, probes[i].key)
				}
			}
			return nil
		})
	})
	// MEMORY USAGE of a key deleted since SCAN is nil; any other error
	// fails the node.
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("TYPE/PTTL/MEMORY USAGE: %w", err)
	}
	for _, p := range probes {
		n.sampled++
		s.sampled.Add(1)
		typ := p.typ.Val()
		if typ == "none" || typ == "" {
			n.vanished++
			continue
		}
		a := n.groups[p.group]
		if a == nil {
			a = &acc{slots: map[int]int{}, types: map[string]int{}, example: p.key}
			n.groups[p.group] = a
		}
		a.seen++
		a.types[typ]++
		a.slots[slot.Slot(p.key)]++
		if ms, err := p.pttl.Int64(); err == nil && ms >= 0 {
			a.ttl++
		}
		if p.mem != nil {
			if b, err := p.mem.Result(); err == nil {
				a.memSum += b
				a.memN++
			}
		}
	}
	return nil
}

func (g groupKey) String() string {
	if g.matched {
		return "f:" + g.name
	}
	return "p:" + g.name
}

// group files a key under its family, or under its unmatched prefix.
func (s *sampler) group(key string) groupKey {
	if f, ok := s.matcher.Match(key); ok {
		return groupKey{name: f, matched: true}
	}
	return groupKey{name: UnmatchedPrefix(key)}
}

// UnmatchedPrefix groups a key that matches no family: its text up to and
// including the first delimiter (':', '/', '|', '.', '#' or '{'), then '*';
// a key without a delimiter is grouped by its leading non-digits. So
// "legacy:7:x" and "legacy:8" group as "legacy:*", "tmp42" as "tmp*".
func UnmatchedPrefix(key string) string {
	if i := strings.IndexAny(key, ":/|.#{"); i >= 0 {
		return key[:i+1] + "*"
	}
	i := strings.IndexAny(key, "0123456789")
	if i < 0 {
		i = len(key)
	}
	return key[:i] + "*"
}

// progress writes a line about every ProgressEvery until the returned stop
// is called.
func (s *sampler) progress(ctx context.Context) (stop func()) {
	if s.opts.Progress == nil {
		return func() {}
	}
	start := time.Now()
	var budget int
	for _, n := range s.nodes {
		budget += n.budget
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(s.opts.ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				done := 0
				for _, n := range s.nodes {
					if n.done.Load() {
						done++
					}
				}
				fmt.Fprintf(s.opts.Progress, "slotlint keys: %d of %d keys sampled, %d of %d nodes done, %s\n",
					s.sampled.Load(), budget, done, len(s.nodes), time.Since(start).Round(time.Second))
			}
		}
	})
	return func() { close(quit); wg.Wait() }
}
