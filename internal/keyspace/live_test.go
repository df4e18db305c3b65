package keyspace

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// shopFamilies are the code's families of the live tests.
func shopFamilies() *Matcher {
	return NewMatcher([]Pattern{
		{"leaderboard", key("leaderboard:{global}:", "<id>")},
		{"cart", key("cart:{", "<user>", "}")},
		{"session", key("session:", "<id>")},
		{"order-lock", key("order:{", "<id>", "}:lock")},
	})
}

// distribution is what fill writes: keys per family (or unmatched prefix).
type distribution struct {
	leaderboard, cart, session, orderLock, legacy, tmp int
}

func (d distribution) total() int {
	return d.leaderboard + d.cart + d.session + d.orderLock + d.legacy + d.tmp
}

// fill writes the distribution through a cluster client: strings of 200
// bytes for the leaderboard (so it also holds most of the memory), carts
// with a TTL on every other one, sessions as hashes.
func fill(t *testing.T, c redis.Cmdable, d distribution) {
	t.Helper()
	ctx := context.Background()
	big := strings.Repeat("x", 200)
	const batch = 2000
	write := func(n int, op func(p redis.Pipeliner, i int)) {
		for start := 0; start < n; start += batch {
			_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
				for i := start; i < min(n, start+batch); i++ {
					op(p, i)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("fill: %v", err)
			}
		}
	}
	write(d.leaderboard, func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("leaderboard:{global}:%d", i), big, 0) })
	write(d.cart, func(p redis.Pipeliner, i int) {
		ttl := time.Duration(0)
		if i%2 == 0 {
			ttl = time.Hour
		}
		p.Set(ctx, fmt.Sprintf("cart:{u%d}", i), "1", ttl)
	})
	write(d.session, func(p redis.Pipeliner, i int) { p.HSet(ctx, fmt.Sprintf("session:s%d", i), "user", i) })
	write(d.orderLock, func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("order:{%d}:lock", i), "1", 0) })
	write(d.legacy, func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("legacy:%d", i), "1", 0) })
	write(d.tmp, func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("tmp%d", i), "1", 0) })
}

func family(r *Report, name string) *FamilyReport {
	for i := range r.Families {
		if r.Families[i].Family == name {
			return &r.Families[i]
		}
	}
	return nil
}

func prefix(r *Report, name string) *PrefixReport {
	for i := range r.Unmatched {
		if r.Unmatched[i].Prefix == name {
			return &r.Unmatched[i]
		}
	}
	return nil
}

// keyCounter is a client hook that counts the keys the sampler looks at:
// every key named by TYPE, PTTL or MEMORY USAGE, and the COUNT of each
// SCAN.
type keyCounter struct {
	mu        sync.Mutex
	inspected map[string]bool
	perCmd    map[string]int
	scans     int
	// onScan, when set, runs after each SCAN reply.
	onScan func(n int)
}

func newKeyCounter() *keyCounter {
	return &keyCounter{inspected: map[string]bool{}, perCmd: map[string]int{}}
}

func (k *keyCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (k *keyCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		k.record(cmd)
		return err
	}
}

func (k *keyCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, c := range cmds {
			k.record(c)
		}
		return err
	}
}

func (k *keyCounter) record(cmd redis.Cmder) {
	k.mu.Lock()
	name := cmd.Name()
	args := cmd.Args()
	switch name {
	case "type", "pttl":
		k.perCmd[name]++
		k.inspected[fmt.Sprint(args[1])] = true
	case "memory":
		k.perCmd[name]++
		k.inspected[fmt.Sprint(args[2])] = true
	case "scan":
		k.scans++
	}
	hook := k.onScan
	n := k.scans
	k.mu.Unlock()
	if name == "scan" && hook != nil {
		hook(n)
	}
}

// within checks an estimate against the truth with a relative tolerance.
func within(t *testing.T, what string, got int64, want int, tol float64) {
	t.Helper()
	if math.Abs(float64(got)-float64(want)) > tol*float64(want) {
		t.Errorf("%s: estimated %d, truth %d (tolerance %.0f%%)", what, got, want, 100*tol)
	}
}

// TestClusterSample fills a cluster of its own with a known distribution
// (the shared cluster's keyspace changes under the other packages' tests)
// and samples half of it.
//
// Sizes make the 5% tolerance honest: with a sampling fraction f, a family
// of X keys is estimated with a standard deviation of about
// sqrt(X·(1-f)/f); at f = 1/2 that is sqrt(X), so each asserted group has
// 6000 keys or more and 5% is over 3.8 standard deviations (a failure rate
// below 1 in 7000 per group).
func TestClusterSample(t *testing.T) {
	cl := redistest.StartCluster(t)
	d := distribution{leaderboard: 44000, cart: 10000, session: 10000, orderLock: 8000, legacy: 6000, tmp: 2000}
	fill(t, cl.Client(t, nil), d)
	ctx := context.Background()
	ks, err := cl.Client(t, nil).ClusterKeySlot(ctx, "leaderboard:{global}:1").Result()
	if err != nil {
		t.Fatal(err)
	}
	lbSlot := int(ks)

	t.Run("half", func(t *testing.T) {
		counter := newKeyCounter()
		budget := d.total() / 2
		r, err := Run(ctx, Options{Seeds: cl.Addrs(), BudgetKeys: budget, Count: 500, Hooks: []redis.Hook{counter}}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		if r.Partial || !r.Cluster || len(r.Nodes) != 3 || r.EstimatedKeys != int64(d.total()) {
			t.Fatalf("report: partial %v (%v), cluster %v, %d nodes, %d keys", r.Partial, r.PartialReasons, r.Cluster, len(r.Nodes), r.EstimatedKeys)
		}
		if r.Sampled > budget || len(counter.inspected) > budget {
			t.Errorf("budget %d: sampled %d, keys inspected %d", budget, r.Sampled, len(counter.inspected))
		}
		if r.Sampled < budget*95/100 {
			t.Errorf("budget %d: sampled only %d", budget, r.Sampled)
		}
		for _, c := range []struct {
			name string
			want int
		}{{"leaderboard", d.leaderboard}, {"cart", d.cart}, {"session", d.session}, {"order-lock", d.orderLock}} {
			f := family(r, c.name)
			if f == nil {
				t.Errorf("family %s not reported", c.name)
				continue
			}
			within(t, c.name, f.Estimated, c.want, 0.05)
		}
		if p := prefix(r, "legacy:*"); p == nil {
			t.Error("unmatched legacy:* not reported")
		} else {
			within(t, "legacy:*", p.Estimated, d.legacy, 0.05)
		}
		if prefix(r, "tmp*") == nil {
			t.Errorf("unmatched tmp* not reported: %+v", r.Unmatched)
		}
		lb := family(r, "leaderboard")
		if lb.Hot == nil || lb.Hot.Scope != "slot" || lb.Hot.Slot != lbSlot || lb.Slots != 1 {
			t.Errorf("leaderboard not flagged on its slot %d: %+v", lbSlot, lb)
		} else if lb.Hot.Addr != cl.MasterOf(lbSlot).Addr || lb.Hot.KeyShare < 0.5 || lb.Hot.MemoryShare < 0.5 {
			t.Errorf("leaderboard's hot spot: %+v", lb.Hot)
		}
		for _, name := range []string{"cart", "session", "order-lock"} {
			if f := family(r, name); f.Hot != nil || f.Slots < 1000 || len(f.Nodes) != 3 {
				t.Errorf("%s: hot %v, %d slots, %d masters", name, f.Hot, f.Slots, len(f.Nodes))
			}
		}
		if cart := family(r, "cart"); math.Abs(cart.TTLShare-0.5) > 0.05 {
			t.Errorf("cart TTL share %.3f, truth 0.5", cart.TTLShare)
		}
		if s := family(r, "session"); s.Types["hash"] != s.Seen {
			t.Errorf("session types %v", s.Types)
		}
	})

	t.Run("all", func(t *testing.T) {
		r, err := Run(ctx, Options{Seeds: cl.Addrs()[1:], BudgetKeys: d.total() + 1000}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range r.Nodes {
			if !n.Complete {
				t.Errorf("node %s not scanned completely: %+v", n.Addr, n)
			}
		}
		for _, c := range []struct {
			name string
			want int
		}{{"leaderboard", d.leaderboard}, {"cart", d.cart}, {"session", d.session}, {"order-lock", d.orderLock}} {
			if f := family(r, c.name); f == nil || f.Estimated != int64(c.want) || f.Seen != c.want {
				t.Errorf("%s: %+v, want exactly %d", c.name, f, c.want)
			}
		}
		if cart := family(r, "cart"); cart.TTLShare != 0.5 {
			t.Errorf("cart TTL share %v, want 0.5 exactly", cart.TTLShare)
		}
		if p := prefix(r, "tmp*"); p == nil || p.Estimated != int64(d.tmp) {
			t.Errorf("tmp*: %+v, want %d", p, d.tmp)
		}
		// Memory: every leaderboard key has the same value, so the mean of
		// 50 MEMORY USAGE replies times the count is near the truth.
		lb := family(r, "leaderboard")
		truth := memoryTruth(t, cl.Client(t, nil), "leaderboard:{global}:", d.leaderboard)
		within(t, "leaderboard memory", lb.MemoryBytes, int(truth), 0.05)
	})

	t.Run("budget", func(t *testing.T) {
		for _, b := range []struct{ budget, count int }{{1, 100}, {7, 3}, {999, 1000}, {5000, 64}} {
			counter := newKeyCounter()
			r, err := Run(ctx, Options{Seeds: cl.Addrs(), BudgetKeys: b.budget, Count: b.count, Hooks: []redis.Hook{counter}}, shopFamilies())
			if err != nil {
				t.Fatal(err)
			}
			if r.Sampled > b.budget || len(counter.inspected) > b.budget || counter.perCmd["type"] > b.budget ||
				counter.perCmd["pttl"] > b.budget || counter.perCmd["memory"] > b.budget {
				t.Errorf("budget %d: sampled %d, inspected %d keys, calls %v", b.budget, r.Sampled, len(counter.inspected), counter.perCmd)
			}
		}
	})

	t.Run("read-only", func(t *testing.T) {
		before := commandStats(t, cl)
		if _, err := Run(ctx, Options{Seeds: cl.Addrs(), BudgetKeys: 3000}, shopFamilies()); err != nil {
			t.Fatal(err)
		}
		allowed := map[string]bool{"scan": true, "type": true, "pttl": true, "memory|usage": true, "dbsize": true,
			"info": true, "cluster|shards": true, "cluster|nodes": true, "hello": true, "readonly": true}
		for cmd, n := range commandStats(t, cl) {
			if n > before[cmd] && !allowed[cmd] {
				t.Errorf("the sampler sent %s (%d calls)", cmd, n-before[cmd])
			}
		}
	})

	t.Run("progress", func(t *testing.T) {
		counter := newKeyCounter()
		counter.onScan = func(int) { time.Sleep(5 * time.Millisecond) }
		var out strings.Builder
		r, err := Run(ctx, Options{Seeds: cl.Addrs(), BudgetKeys: 3000, Count: 50, Hooks: []redis.Hook{counter},
			Progress: &out, ProgressEvery: 20 * time.Millisecond}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		// About 60 SCAN calls of 5 ms on three nodes at once: 100 ms or more.
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "slotlint keys: ") || !strings.Contains(lines[0], " of 3000 keys sampled, ") {
			t.Errorf("progress lines %q", lines)
		}
		if r.Sampled != 3000 {
			t.Errorf("sampled %d", r.Sampled)
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		ictx, cancel := context.WithCancel(ctx)
		defer cancel()
		counter := newKeyCounter()
		// Three nodes scan at once: by the ninth SCAN one of them has
		// inspected two pages.
		counter.onScan = func(n int) {
			if n == 9 {
				cancel()
			}
		}
		r, err := Run(ictx, Options{Seeds: cl.Addrs(), BudgetKeys: 40000, Count: 100, Hooks: []redis.Hook{counter}}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Partial || len(r.PartialReasons) != 1 || !strings.Contains(r.PartialReasons[0], "interrupted") || len(r.Errors) != 0 {
			t.Errorf("partial %v, reasons %q, errors %v", r.Partial, r.PartialReasons, r.Errors)
		}
		if r.Sampled == 0 || r.Sampled >= 40000 {
			t.Errorf("sampled %d keys before the interrupt", r.Sampled)
		}
	})
}

// memoryTruth sums MEMORY USAGE over a family's n keys.
func memoryTruth(t *testing.T, c *redis.ClusterClient, pfx string, n int) int64 {
	t.Helper()
	ctx := context.Background()
	cmds := make([]*redis.IntCmd, n)
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range n {
			cmds[i] = p.MemoryUsage(ctx, pfx+strconv.Itoa(i))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, c := range cmds {
		sum += c.Val()
	}
	return sum
}

// commandStats sums the calls per command of INFO commandstats over the
// cluster's masters.
func commandStats(t *testing.T, cl *redistest.PrivateCluster) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, m := range cl.Masters {
		info, err := m.Client(t).Info(context.Background(), "commandstats").Result()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(info) {
			name, rest, ok := strings.Cut(strings.TrimPrefix(line, "cmdstat_"), ":calls=")
			if !ok {
				continue
			}
			n, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
			out[name] += n
		}
	}
	return out
}

// TestDeadMaster: a paused master and a killed one each give an error that
// names the node and its slots, the report covers the other masters, and
// the run ends by its time budget.
func TestDeadMaster(t *testing.T) {
	cl := redistest.StartCluster(t, "--cluster-require-full-coverage", "no")
	d := distribution{cart: 3000, session: 3000}
	fill(t, cl.Client(t, nil), d)
	ctx := context.Background()
	slotsOf := func(i int) string { return fmt.Sprintf("%d-%d", i*16384/3, (i+1)*16384/3-1) }

	check := func(t *testing.T, r *Report, dead int) {
		t.Helper()
		if !r.Partial || len(r.Errors) != 1 {
			t.Fatalf("partial %v, errors %v", r.Partial, r.Errors)
		}
		msg := r.Errors[0].Error()
		if !strings.Contains(msg, cl.Masters[dead].Addr) || !strings.Contains(msg, "slots "+slotsOf(dead)) {
			t.Errorf("error %q does not name %s and slots %s", msg, cl.Masters[dead].Addr, slotsOf(dead))
		}
		// The other two masters hold about two thirds of each family.
		for _, name := range []string{"cart", "session"} {
			f := family(r, name)
			if f == nil || f.Seen < 1500 || f.Seen > 2500 || len(f.Nodes) != 2 {
				t.Errorf("%s on the live masters: %+v", name, f)
			}
		}
	}

	t.Run("paused", func(t *testing.T) {
		cl.Masters[1].Pause(t)
		defer cl.Masters[1].Resume(t)
		// The paused master is the first seed: discovery moves on to the next.
		seeds := []string{cl.Masters[1].Addr, cl.Masters[0].Addr}
		r, err := Run(ctx, Options{Seeds: seeds, CallTimeout: 300 * time.Millisecond, TimeBudget: 5 * time.Minute}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		check(t, r, 1)
		// Each call to the paused master ends at the call timeout, so the
		// run ends by itself: had a call waited, only the time budget
		// would have ended it, and the report would say so.
		if reasons := strings.Join(r.PartialReasons, ";"); strings.Contains(reasons, "time budget") {
			t.Errorf("the time budget ended the run: a call to the paused master did not end at its timeout (%s)", reasons)
		}
	})

	t.Run("time budget", func(t *testing.T) {
		cl.Masters[1].Pause(t)
		defer cl.Masters[1].Resume(t)
		r, err := Run(ctx, Options{Seeds: []string{cl.Masters[0].Addr}, CallTimeout: time.Minute, TimeBudget: time.Second}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		// The paused master is named, and not as an error of its own: the
		// run ended before it could fail.
		reasons := strings.Join(r.PartialReasons, ";")
		if !r.Partial || !strings.Contains(reasons, "time budget of 1s") || len(r.Errors) != 0 ||
			!strings.Contains(reasons, cl.Masters[1].Addr+" (slots "+slotsOf(1)+"): no answer before the run ended") {
			t.Errorf("partial %v, reasons %q, errors %v", r.Partial, r.PartialReasons, r.Errors)
		}
	})

	t.Run("killed", func(t *testing.T) {
		cl.Masters[2].Kill(t)
		r, err := Run(ctx, Options{Seeds: cl.Addrs(), CallTimeout: time.Second}, shopFamilies())
		if err != nil {
			t.Fatal(err)
		}
		check(t, r, 2)
	})

	t.Run("no seed", func(t *testing.T) {
		_, err := Run(ctx, Options{Seeds: []string{cl.Masters[2].Addr}, CallTimeout: time.Second}, shopFamilies())
		if err == nil || !strings.Contains(err.Error(), cl.Masters[2].Addr) {
			t.Errorf("a dead seed: error %v", err)
		}
	})
}

// TestReplica: with the replica option a master is refused and a replica
// is scanned.
func TestReplica(t *testing.T) {
	// A full sync waits 5 s for more replicas unless told not to.
	master := redistest.StartServer(t, "--repl-diskless-sync-delay", "0")
	_, port, _ := net.SplitHostPort(master.Addr)
	replica := redistest.StartServer(t, "--replicaof", "127.0.0.1", port)
	d := distribution{session: 500, legacy: 100}
	fill(t, master.Client(t), d)
	rc := replica.Client(t)
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for {
		n, err := rc.DBSize(ctx).Result()
		if err == nil && n == int64(d.total()) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica holds %d keys (%v), want %d", n, err, d.total())
		}
		time.Sleep(50 * time.Millisecond)
	}
	_, err := Run(ctx, Options{Seeds: []string{"redis://" + master.Addr}, Replicas: true}, shopFamilies())
	var nr *NotReplicaError
	if !errors.As(err, &nr) {
		t.Errorf("a master with the replica option: %v", err)
	}
	r, err := Run(ctx, Options{Seeds: []string{"redis://" + replica.Addr}, Replicas: true}, shopFamilies())
	if err != nil {
		t.Fatal(err)
	}
	if f := family(r, "session"); f == nil || f.Estimated != int64(d.session) {
		t.Errorf("session on the replica: %+v", f)
	}
}

// TestShardsAgreeWithNodes: the CLUSTER NODES reader (servers before
// Redis 7) finds the shards CLUSTER SHARDS gives, on the shared cluster.
func TestShardsAgreeWithNodes(t *testing.T) {
	c := redistest.ClusterNode(t)
	ctx := context.Background()
	fromShards, err := clusterShards(ctx, c, false)
	if err != nil {
		t.Fatal(err)
	}
	text, err := c.ClusterNodes(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	fromNodes, err := parseClusterNodes(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromShards) != 3 || fmt.Sprint(fromShards) != fmt.Sprint(fromNodes) {
		t.Errorf("CLUSTER SHARDS: %+v\nCLUSTER NODES: %+v", fromShards, fromNodes)
	}
}

// TestStandalone samples the shared standalone server, whose other keys
// belong to other packages' tests: the test's own family, written before
// the scan and kept until after it, is seen whole by a scan that goes
// round (SCAN returns every key present throughout), and a small budget
// is kept whatever else the server holds.
func TestStandalone(t *testing.T) {
	c := redistest.Standalone(t)
	ctx := context.Background()
	pfx := redistest.Prefix(t)
	const n = 500
	var keys []string
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range n {
			k := pfx + "item:" + strconv.Itoa(i)
			keys = append(keys, k)
			p.Set(ctx, k, i, time.Hour)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Del(context.Background(), keys...) })
	m := NewMatcher([]Pattern{{"item", key(pfx+"item:", "<n>")}})
	seed := redistest.StandaloneAddr(t)

	r, err := Run(ctx, Options{Seeds: []string{seed}, BudgetKeys: 10_000_000}, m)
	if err != nil {
		t.Fatal(err)
	}
	f := family(r, "item")
	if r.Cluster || len(r.Nodes) != 1 || !r.Nodes[0].Complete || f == nil || f.Seen != n || f.TTLShare != 1 {
		t.Errorf("full scan: cluster %v, nodes %+v, item %+v", r.Cluster, r.Nodes, f)
	}

	counter := newKeyCounter()
	r, err = Run(ctx, Options{Seeds: []string{"redis://" + seed}, BudgetKeys: 50, Count: 20, Hooks: []redis.Hook{counter}}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Sampled > 50 || len(counter.inspected) > 50 {
		t.Errorf("budget 50: sampled %d, inspected %d keys", r.Sampled, len(counter.inspected))
	}
}

// TestClusterReplicas: with the replica option each shard is scanned on a
// replica, never on its master, and a shard without a replica is named
// with its slots and left out.
func TestClusterReplicas(t *testing.T) {
	cl := redistest.StartCluster(t, "--cluster-require-full-coverage", "no")
	d := distribution{cart: 3000}
	fill(t, cl.Client(t, nil), d)
	ctx := context.Background()
	rep := redistest.StartServer(t, "--cluster-enabled", "yes",
		"--cluster-config-file", fmt.Sprintf("nodes-replica-%d.conf", time.Now().UnixNano()))
	rc := rep.Client(t)
	m0 := cl.Masters[0].Client(t)
	// A full sync waits 5 s for more replicas unless told not to.
	cl.Masters[0].ConfigSet(t, "repl-diskless-sync-delay", "0")
	id, err := m0.Do(ctx, "CLUSTER", "MYID").Text()
	if err != nil {
		t.Fatal(err)
	}
	if err := rc.ClusterMeet(ctx, "127.0.0.1", strconv.Itoa(cl.Masters[0].Port)).Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	wait := func(what string, ok func() bool) {
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("the replica did not join: %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// REPLICATE fails until the handshake has made the master known, and
	// starts the replication over each time it succeeds: it is sent once.
	wait("CLUSTER REPLICATE", func() bool { return rc.Do(ctx, "CLUSTER", "REPLICATE", id).Err() == nil })
	wait("in sync, and online in CLUSTER SHARDS", func() bool {
		info, _ := rc.Info(ctx, "replication").Result()
		shards, _ := clusterShards(ctx, m0, false)
		return strings.Contains(info, "master_link_status:up") && len(shards) == 3 &&
			len(shards[0].replicas) == 1 && shards[0].replicas[0].online
	})
	before := commandStats(t, cl)
	r, err := Run(ctx, Options{Seeds: cl.Addrs(), Replicas: true}, shopFamilies())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Nodes) != 1 || r.Nodes[0].Addr != rep.Addr || r.Nodes[0].Master != cl.Masters[0].Addr || !r.Nodes[0].Complete {
		t.Errorf("nodes %+v, want the replica %s of %s", r.Nodes, rep.Addr, cl.Masters[0].Addr)
	}
	if len(r.Errors) != 2 || !strings.Contains(r.Errors[0].Error(), "slots 5461-10921") || !strings.Contains(r.Errors[0].Error(), "no online replica") {
		t.Errorf("errors %v, want the two shards without a replica", r.Errors)
	}
	// The replica holds the first master's share of the carts, exactly.
	truth, err := m0.Do(ctx, "DBSIZE").Int64()
	if err != nil {
		t.Fatal(err)
	}
	if f := family(r, "cart"); f == nil || f.Seen != int(truth) {
		t.Errorf("cart on the replica: %+v, want %d", f, truth)
	}
	after := commandStats(t, cl)
	for _, cmd := range []string{"scan", "type", "pttl", "memory|usage"} {
		if after[cmd] != before[cmd] {
			t.Errorf("a master received %s with the replica option", cmd)
		}
	}
}
