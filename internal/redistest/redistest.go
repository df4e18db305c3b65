// Package redistest connects tests to the real Redis servers that
// scripts/redis-test-env starts: one standalone server and one 3-master
// cluster. Without those servers a test skips with the reason, except when
// CI=true, where a missing server fails the test.
//
// Packages' tests run in parallel against the same servers, so tests never
// flush a database: they use keys under Prefix(t).
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Environment variables set by scripts/redis-test-env.
const (
	EnvStandalone = "SLOTLINT_REDIS_ADDR"
	EnvCluster    = "SLOTLINT_REDIS_CLUSTER_ADDRS"
)

func missing(t testing.TB, env string) {
	t.Helper()
	msg := env + " is not set: run the tests with scripts/redis-test-env (make test starts Redis itself)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// StandaloneAddr returns the standalone server's address.
func StandaloneAddr(t testing.TB) string {
	t.Helper()
	addr := os.Getenv(EnvStandalone)
	if addr == "" {
		missing(t, EnvStandalone)
	}
	return addr
}

// ClusterAddrs returns the cluster masters' addresses.
func ClusterAddrs(t testing.TB) []string {
	t.Helper()
	addrs := os.Getenv(EnvCluster)
	if addrs == "" {
		missing(t, EnvCluster)
	}
	return strings.Split(addrs, ",")
}

// Standalone returns a client of the standalone server, closed when the test
// ends.
func Standalone(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: StandaloneAddr(t)})
	t.Cleanup(func() { c.Close() })
	ping(t, c)
	return c
}

// Cluster returns a cluster client, closed when the test ends.
func Cluster(t testing.TB) *redis.ClusterClient {
	t.Helper()
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: ClusterAddrs(t)})
	t.Cleanup(func() { c.Close() })
	ping(t, c)
	return c
}

// ClusterNode returns a plain client of one cluster master: it sends
// commands without cluster routing, as a managed endpoint behind a plain
// client would receive them.
func ClusterNode(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: ClusterAddrs(t)[0]})
	t.Cleanup(func() { c.Close() })
	ping(t, c)
	return c
}

func ping(t testing.TB, c redis.UniversalClient) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("redis is not reachable: %v", err)
	}
}

// Prefix returns a key prefix unique to this test run, so tests of several
// packages can share the servers. It carries no hash tag.
func Prefix(t testing.TB) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "slotlint-test:" + hex.EncodeToString(b[:]) + ":"
}
