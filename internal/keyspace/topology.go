package keyspace

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// SlotRange is a range of cluster hash slots, both ends included.
type SlotRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

func (r SlotRange) String() string {
	if r.Start == r.End {
		return strconv.Itoa(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

func formatRanges(rs []SlotRange) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// node is one server the sampler scans: a standalone server, or the master
// (or, with Options.Replicas, a replica) of one cluster shard.
type node struct {
	addr   string
	slots  []SlotRange // nil for a standalone server
	master string      // the shard's master, when node is a replica
	opts   *redis.Options
}

// topology is what discovery found: the nodes to scan and the shards that
// cannot be scanned, with the reason.
type topology struct {
	cluster bool
	nodes   []node
	errs    []NodeError
}

// parseSeed turns a redis:// or rediss:// URL, or a bare host:port, into
// client options.
func parseSeed(seed string) (*redis.Options, error) {
	if strings.Contains(seed, "://") {
		o, err := redis.ParseURL(seed)
		if err != nil {
			return nil, &SeedError{Seed: seed, Err: err}
		}
		return o, nil
	}
	if _, _, err := net.SplitHostPort(seed); err != nil {
		return nil, &SeedError{Seed: seed, Err: errors.New("want redis://HOST:PORT, rediss://HOST:PORT or HOST:PORT")}
	}
	return &redis.Options{Addr: seed}, nil
}

// SeedError is a seed address that cannot be parsed.
type SeedError struct {
	Seed string
	Err  error
}

func (e *SeedError) Error() string { return fmt.Sprintf("redis address %q: %v", e.Seed, e.Err) }
func (e *SeedError) Unwrap() error { return e.Err }

// clientOptions prepares options for one node: no retries (a failed call
// is reported, not repeated), every call bounded by the call timeout, and
// nothing sent on connect beyond the handshake (no CLIENT SETINFO, no
// maintenance notifications); READONLY on a cluster replica.
func clientOptions(base *redis.Options, addr string, callTimeout time.Duration, readOnly bool) *redis.Options {
	o := *base
	o.Addr = addr
	o.MaxRetries = -1
	o.DialTimeout = callTimeout
	o.ReadTimeout = callTimeout
	o.WriteTimeout = callTimeout
	o.ContextTimeoutEnabled = true
	o.PoolSize = 2
	o.DisableIdentity = true
	o.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	if readOnly {
		o.OnConnect = func(ctx context.Context, cn *redis.Conn) error {
			return cn.ReadOnly(ctx).Err()
		}
	}
	return &o
}

func newClient(o *redis.Options, hooks []redis.Hook) *redis.Client {
	c := redis.NewClient(o)
	for _, h := range hooks {
		c.AddHook(h)
	}
	return c
}

// discover asks the seeds, in order, what to scan. The first seed that
// answers decides: a standalone server is scanned itself; a cluster node
// gives the shards through CLUSTER SHARDS, or CLUSTER NODES before Redis 7.
func discover(ctx context.Context, opts *Options) (*topology, error) {
	var errs []error
	for _, seed := range opts.Seeds {
		base, err := parseSeed(seed)
		if err != nil {
			return nil, err
		}
		t, err := discoverFrom(ctx, opts, base)
		if err == nil {
			return t, nil
		}
		if runEnded(ctx) {
			return nil, err
		}
		errs = append(errs, fmt.Errorf("%s: %w", base.Addr, err))
	}
	return nil, fmt.Errorf("no seed answered: %w", errors.Join(errs...))
}

func discoverFrom(ctx context.Context, opts *Options, base *redis.Options) (*topology, error) {
	c := newClient(clientOptions(base, base.Addr, opts.CallTimeout, false), opts.Hooks)
	defer c.Close()
	info, err := call(ctx, opts.CallTimeout, func(ctx context.Context) (string, error) {
		return c.Info(ctx, "cluster", "replication").Result()
	})
	if err != nil {
		return nil, err
	}
	fields := infoFields(info)
	if fields["cluster_enabled"] != "1" {
		if opts.Replicas && fields["role"] != "slave" {
			return nil, &NotReplicaError{Addr: base.Addr}
		}
		return &topology{nodes: []node{{addr: base.Addr, opts: base}}}, nil
	}
	if base.DB != 0 {
		return nil, fmt.Errorf("a cluster has database 0 only, the address asks for %d", base.DB)
	}
	shards, err := call(ctx, opts.CallTimeout, func(ctx context.Context) ([]shard, error) {
		return clusterShards(ctx, c, base.TLSConfig != nil)
	})
	if err != nil {
		return nil, err
	}
	return shardTopology(shards, base, opts.Replicas), nil
}

// NotReplicaError refuses to scan a master when only replicas may be read.
type NotReplicaError struct{ Addr string }

func (e *NotReplicaError) Error() string {
	return fmt.Sprintf("%s is a master: with the replica option only replicas are scanned", e.Addr)
}

// shard is one cluster shard as discovery sees it.
type shard struct {
	slots    []SlotRange
	master   shardNode
	replicas []shardNode
}

type shardNode struct {
	addr   string
	online bool
}

func shardTopology(shards []shard, base *redis.Options, replicas bool) *topology {
	t := &topology{cluster: true}
	for _, s := range shards {
		if len(s.slots) == 0 {
			continue // a master without slots holds no keys
		}
		n := node{addr: s.master.addr, slots: s.slots, opts: base}
		switch {
		case replicas:
			i := slices.IndexFunc(s.replicas, func(r shardNode) bool { return r.online })
			if i < 0 {
				t.errs = append(t.errs, NodeError{Addr: s.master.addr, Slots: s.slots,
					Err: errors.New("no online replica to scan (the replica option never reads a master)")})
				continue
			}
			n.master, n.addr = s.master.addr, s.replicas[i].addr
		case !s.master.online:
			t.errs = append(t.errs, NodeError{Addr: s.master.addr, Slots: s.slots,
				Err: errors.New("the cluster marks this master as failed")})
			continue
		}
		t.nodes = append(t.nodes, n)
	}
	return t
}

// clusterShards reads CLUSTER SHARDS (Redis 7.0+), or CLUSTER NODES when
// the server does not know it.
func clusterShards(ctx context.Context, c *redis.Client, tls bool) ([]shard, error) {
	res, err := c.ClusterShards(ctx).Result()
	if err != nil {
		if !isUnknownCommand(err) {
			return nil, err
		}
		text, err := c.ClusterNodes(ctx).Result()
		if err != nil {
			return nil, err
		}
		return parseClusterNodes(text)
	}
	var out []shard
	for _, s := range res {
		var sh shard
		for _, r := range s.Slots {
			sh.slots = append(sh.slots, SlotRange{Start: int(r.Start), End: int(r.End)})
		}
		for _, n := range s.Nodes {
			host := n.IP
			if n.Endpoint != "" && n.Endpoint != "?" {
				host = n.Endpoint
			}
			port := n.Port
			if tls && n.TLSPort > 0 {
				port = n.TLSPort
			}
			sn := shardNode{addr: net.JoinHostPort(host, strconv.FormatInt(port, 10)), online: n.Health == "online"}
			if n.Role == "master" {
				sh.master = sn
			} else {
				sh.replicas = append(sh.replicas, sn)
			}
		}
		out = append(out, sh)
	}
	sortShards(out)
	return out, nil
}

func isUnknownCommand(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "unknown subcommand") || strings.Contains(s, "unknown command")
}

// parseClusterNodes reads the CLUSTER NODES text: one line per node,
// "id host:port@bus flags master-id ping pong epoch link slot...".
func parseClusterNodes(text string) ([]shard, error) {
	byMaster := map[string]*shard{}
	type replica struct {
		master string
		node   shardNode
	}
	var reps []replica
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) < 8 {
			if len(f) > 0 {
				return nil, fmt.Errorf("CLUSTER NODES: malformed line %q", line)
			}
			continue
		}
		addr, _, _ := strings.Cut(f[1], "@")
		addr, _, _ = strings.Cut(addr, ",") // host:port@bus,hostname
		flags := strings.Split(f[2], ",")
		online := !slices.Contains(flags, "fail") && !slices.Contains(flags, "noaddr") && f[7] == "connected"
		sn := shardNode{addr: addr, online: online}
		if !slices.Contains(flags, "master") {
			reps = append(reps, replica{master: f[3], node: sn})
			continue
		}
		sh := &shard{master: sn}
		for _, r := range f[8:] {
			if strings.HasPrefix(r, "[") {
				continue // a slot being imported or migrated
			}
			lo, hi, found := strings.Cut(r, "-")
			if !found {
				hi = lo
			}
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("CLUSTER NODES: bad slot range %q", r)
			}
			sh.slots = append(sh.slots, SlotRange{Start: a, End: b})
		}
		byMaster[f[0]] = sh
	}
	for _, r := range reps {
		if sh := byMaster[r.master]; sh != nil {
			sh.replicas = append(sh.replicas, r.node)
		}
	}
	var out []shard
	for _, sh := range byMaster {
		slices.SortFunc(sh.slots, func(a, b SlotRange) int { return a.Start - b.Start })
		out = append(out, *sh)
	}
	sortShards(out)
	return out, nil
}

// sortShards orders shards by their first slot, and replicas by address,
// so a run scans the same nodes in the same order.
func sortShards(shards []shard) {
	for i := range shards {
		slices.SortFunc(shards[i].replicas, func(a, b shardNode) int { return strings.Compare(a.addr, b.addr) })
	}
	slices.SortFunc(shards, func(a, b shard) int {
		if len(a.slots) == 0 || len(b.slots) == 0 {
			return len(b.slots) - len(a.slots)
		}
		return a.slots[0].Start - b.slots[0].Start
	})
}

// infoFields reads the "name:value" lines of an INFO reply.
func infoFields(info string) map[string]string {
	m := map[string]string{}
	for line := range strings.Lines(info) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			m[k] = v
		}
	}
	return m
}

// call runs f under the call timeout, within the run's context.
func call[T any](ctx context.Context, timeout time.Duration, f func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return f(ctx)
}

// CheckSeed reports whether seed is an address Run accepts: a redis:// or
// rediss:// URL, or host:port.
func CheckSeed(seed string) error {
	_, err := parseSeed(seed)
	return err
}
