package runtime

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
)

// servers runs f against the standalone server and the cluster.
func servers(t *testing.T, f func(t *testing.T, rdb redis.UniversalClient)) {
	t.Run("standalone", func(t *testing.T) { f(t, redistest.Standalone(t)) })
	t.Run("cluster", func(t *testing.T) { f(t, redistest.Cluster(t)) })
}

// privateServers runs f against a standalone server and a cluster that the
// test owns, for tests that pause servers or flush their scripts, which
// would disturb the other packages' tests on the shared ones.
func privateServers(t *testing.T, f func(t *testing.T, rdb redis.UniversalClient)) {
	t.Run("standalone", func(t *testing.T) { f(t, redistest.StartServer(t).Client(t)) })
	t.Run("cluster", func(t *testing.T) { f(t, redistest.StartCluster(t).Client(t, nil)) })
}

// volumeTest skips a test whose point is its volume (100,000 locks or
// acquisitions) under the race detector, which makes each call three to
// four times as costly: make test runs it without -race (go-test-volume,
// RUNTIME_NORACE in the Makefile; add the test's name there).
func volumeTest(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("a volume test: make test runs it without -race (Makefile, RUNTIME_NORACE)")
	}
}

// newClient returns a go-redis client of the same kind as rdb, on the same
// servers, with its own connections, standing in for another process.
func newClient(t testing.TB, rdb redis.UniversalClient) redis.UniversalClient {
	t.Helper()
	return newNamedClient(t, rdb, "")
}

// newNamedClient is newClient whose connections carry a client name (CLIENT
// SETNAME), so that a test can find its own clients in CLIENT LIST among
// those of the other packages' tests on the shared servers.
func newNamedClient(t testing.TB, rdb redis.UniversalClient, name string) redis.UniversalClient {
	t.Helper()
	var c redis.UniversalClient
	switch r := rdb.(type) {
	case *redis.ClusterClient:
		c = redis.NewClusterClient(&redis.ClusterOptions{Addrs: r.Options().Addrs, ClientName: name})
	case *redis.Client:
		c = redis.NewClient(&redis.Options{Addr: r.Options().Addr, ClientName: name})
	default:
		t.Fatalf("newNamedClient: %T is neither a client nor a cluster client", rdb)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// tagged returns a key family id unique to the test, for Key.
func tagged(t testing.TB) string {
	return redistest.Prefix(t)[len("slotlint-test:"):]
}

// badCounters returns, in the key family given, the keys the counters'
// error tests use: one missing, a string that is not an integer, a list
// and an integer of 16 digits, the last three expiring within a minute.
func badCounters(t testing.TB, rdb redis.UniversalClient, family string) (missing, text, list, big string) {
	t.Helper()
	ctx := context.Background()
	id := tagged(t)
	missing, text, list, big = Key(family, id, "missing"), Key(family, id, "text"), Key(family, id, "list"), Key(family, id, "big")
	rdb.Set(ctx, text, "12abc", time.Minute)
	rdb.RPush(ctx, list, "1")
	rdb.Expire(ctx, list, time.Minute)
	rdb.Set(ctx, big, "1234567890123456", time.Minute)
	return missing, text, list, big
}

// snapshot returns DUMP of each key (empty when missing), to prove that an
// operation wrote nothing.
func snapshot(t testing.TB, rdb redis.UniversalClient, keys ...string) []string {
	t.Helper()
	out := make([]string, len(keys))
	for i, k := range keys {
		v, err := rdb.Dump(context.Background(), k).Result()
		if err != nil && err != redis.Nil {
			t.Fatalf("DUMP %s: %v", k, err)
		}
		ttl, err := rdb.PTTL(context.Background(), k).Result()
		if err != nil {
			t.Fatalf("PTTL %s: %v", k, err)
		}
		if ttl > 0 {
			ttl = 1 // present with a TTL; the exact value ticks down
		}
		out[i] = v + "|" + ttl.String()
	}
	return out
}

// recordingHooks counts events for assertions.
type recordingHooks struct {
	mu        sync.Mutex
	obtains   int
	attempts  int
	contended int
	renewFail int
	lost      []error
	lostAt    []time.Time // when each loss was reported
	reloads   map[string]int
	latencies []time.Duration
}

func (h *recordingHooks) ObtainDone(_ string, attempts int, latency time.Duration, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.obtains++
	h.attempts += attempts
	h.latencies = append(h.latencies, latency)
}

func (h *recordingHooks) Contended(string, time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.contended++
}

func (h *recordingHooks) RenewFailed(string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.renewFail++
}

func (h *recordingHooks) LockLost(_ string, cause error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lost = append(h.lost, cause)
	h.lostAt = append(h.lostAt, time.Now())
}

func (h *recordingHooks) ScriptReloaded(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.reloads == nil {
		h.reloads = map[string]int{}
	}
	h.reloads[name]++
}

// must1 returns v, and panics on an error that a test's own fixed input
// cannot produce.
func must1[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// inBackground runs f on its own goroutine with a context that ends when
// the test does, and waits for f in the test's cleanup. A goroutine that
// reports a failure must not outlive its test: when a test stops early
// (t.Fatal), a later t.Error from a goroutine still waiting on Redis
// panics the whole test binary. f reports an error only while ctx lasts.
func inBackground(t *testing.T, f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		f(ctx)
	}()
}

// retryConclusive runs a scenario whose checks need the machine to keep up
// with a span of real time d (a hand-off window, a lease): run returns
// false when the machine did not, which it tells from the clock (a check
// that failed after the span may have ended), so that the run says nothing
// either way. The scenario then runs again with twice the span, up to
// most; run fails the test itself on a check that failed within the span.
// On 2 cores at load 19-24, a goroutine's 10ms sleep (-race) overran by up
// to 650ms (p99 115ms, 1476 sleeps).
func retryConclusive(t *testing.T, what string, d, most time.Duration, run func(attempt int, d time.Duration) bool) {
	t.Helper()
	for attempt := 1; ; attempt, d = attempt+1, 2*d {
		if run(attempt, d) {
			return
		}
		if d >= most {
			t.Fatalf("%s: every run was inconclusive, up to %v", what, d)
		}
		t.Logf("%s: the machine did not keep up with %v; again with %v", what, d, 2*d)
	}
}

// lostPastDeadline tells whether the lock of l was found lost no sooner
// than its Deadline, when the lease had run out, as a watchdog that no
// renewal got through in time rightly reports it: found by the watchdog
// (reported through h), or else by the test at seen. A loss found before
// the Deadline means Redis let the lock go early.
func (h *recordingHooks) lostPastDeadline(l *Lock, seen time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.lostAt) > 0 {
		seen = h.lostAt[0]
	}
	return !seen.Before(l.Deadline())
}
