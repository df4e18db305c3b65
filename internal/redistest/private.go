package redistest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server that one test owns: tests that pause, kill or
// reconfigure a server start their own, so the shared servers of
// scripts/redis-test-env survive them. It stops when the test ends.
type Server struct {
	Addr string
	Port int

	name string
	log  string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// PrivateCluster is a 3-master cluster without replicas that one test owns.
// Masters[i] serves the slots [i*16384/3, (i+1)*16384/3).
type PrivateCluster struct {
	Masters []*Server
}

// redisServerPath finds redis-server, or skips the test (fails it under
// CI=true) when it is missing.
func redisServerPath(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server is not installed: the test needs its own server (Debian/Ubuntu: apt-get install redis-server)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// portRange returns the ports a server may take: below the kernel's
// ephemeral range, bus port (port+10000) included, as scripts/redis-test-env
// does, since a port in that range can be taken by any outgoing connection
// between the check and the bind.
func portRange() (low, high int) {
	low, high = 10000, 30000
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return low, high
	}
	fields := strings.Fields(string(b))
	if len(fields) > 0 {
		if eph, err := strconv.Atoi(fields[0]); err == nil && eph-10000 > low+1000 {
			high = eph - 10000
		}
	}
	return low, high
}

func portFree(port int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// StartServer starts a standalone redis-server on a free loopback port,
// without persistence, in a directory of the test. Extra arguments are
// passed to redis-server (e.g. "--maxmemory", "1mb").
func StartServer(t testing.TB, args ...string) *Server {
	t.Helper()
	return startServer(t, "standalone", args...)
}

func startServer(t testing.TB, name string, args ...string) *Server {
	t.Helper()
	path := redisServerPath(t)
	dir := t.TempDir()
	low, high := portRange()
	var lastLog string
	for range 50 {
		port := low + rand.IntN(high-low)
		if !portFree(port) || !portFree(port+10000) {
			continue
		}
		s, err := launch(path, dir, name, port, args)
		if err == nil {
			t.Cleanup(s.stop)
			return s
		}
		lastLog = err.Error()
	}
	t.Fatalf("could not start redis-server %s: %s", name, lastLog)
	return nil
}

// launch starts one server and waits until it answers PING, or returns the
// server's log if it exits (a port taken after all) or does not answer.
func launch(path, dir, name string, port int, args []string) (*Server, error) {
	logFile := filepath.Join(dir, fmt.Sprintf("%s-%d.log", name, port))
	full := append([]string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no",
		"--logfile", logFile, "--enable-debug-command", "local",
	}, args...)
	cmd := exec.Command(path, full...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{
		Addr: "127.0.0.1:" + strconv.Itoa(port), Port: port,
		name: name, log: logFile, cmd: cmd, done: make(chan struct{}),
	}
	go func() { cmd.Wait(); close(s.done) }()
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer c.Close()
	for range 200 {
		select {
		case <-s.done:
			b, _ := os.ReadFile(logFile)
			return nil, errors.New(string(b))
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return s, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.stop()
	b, _ := os.ReadFile(logFile)
	return nil, fmt.Errorf("no answer to PING within 4s: %s", b)
}

// stop kills the process (SIGKILL also ends a stopped one) and waits for it.
func (s *Server) stop() {
	s.cmd.Process.Kill()
	<-s.done
}

// Client returns a plain client of this server, closed when the test ends.
// It does not retry: a test of a paused server sees each failure as it is.
func (s *Server) Client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// Pause stops the process with SIGSTOP: its sockets stay open and nothing
// answers, as with a server stuck in a long command or a frozen VM. The
// test's cleanup resumes it.
func (s *Server) Pause(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGSTOP)
}

// Resume continues a paused server with SIGCONT.
func (s *Server) Resume(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGCONT)
}

// Kill ends the server with SIGKILL and waits until it is gone: its
// connections are reset and its port refuses new ones.
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGKILL)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("redis-server %s did not exit after SIGKILL", s.Addr)
	}
}

func (s *Server) signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	select {
	case <-s.done:
		t.Fatalf("redis-server %s has already exited", s.Addr)
	default:
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v to redis-server %s: %v", sig, s.Addr, err)
	}
}

// ConfigSet runs CONFIG SET name value on this server.
func (s *Server) ConfigSet(t testing.TB, name, value string) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ConfigSet(ctx, name, value).Err(); err != nil {
		t.Fatalf("CONFIG SET %s %s on %s: %v", name, value, s.Addr, err)
	}
}

// Log returns what the server wrote to its log so far, for a failure message.
func (s *Server) Log() string {
	b, err := os.ReadFile(s.log)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// StartCluster starts a 3-master cluster without replicas. Extra arguments
// go to every node: fault tests usually want
// "--cluster-require-full-coverage", "no", so the healthy masters keep
// serving their slots once the others mark a dead master as failed (after
// --cluster-node-timeout, 5000 ms unless given).
func StartCluster(t testing.TB, args ...string) *PrivateCluster {
	t.Helper()
	const masters = 3
	c := &PrivateCluster{}
	for i := range masters {
		nodeArgs := append([]string{
			"--cluster-enabled", "yes",
			"--cluster-config-file", fmt.Sprintf("nodes-%d-%d.conf", i, time.Now().UnixNano()),
			"--cluster-node-timeout", "5000",
		}, args...)
		c.Masters = append(c.Masters, startServer(t, fmt.Sprintf("cluster%d", i+1), nodeArgs...))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	clients := make([]*redis.Client, masters)
	for i, m := range c.Masters {
		clients[i] = redis.NewClient(&redis.Options{Addr: m.Addr, MaxRetries: -1})
		defer clients[i].Close()
		first, last := i*16384/masters, (i+1)*16384/masters-1
		if err := clients[i].Do(ctx, "CLUSTER", "ADDSLOTSRANGE", first, last).Err(); err != nil {
			t.Fatalf("CLUSTER ADDSLOTSRANGE on %s: %v", m.Addr, err)
		}
	}
	for _, m := range c.Masters[1:] {
		if err := clients[0].ClusterMeet(ctx, "127.0.0.1", strconv.Itoa(m.Port)).Err(); err != nil {
			t.Fatalf("CLUSTER MEET %s: %v", m.Addr, err)
		}
	}
	for !c.ready(ctx, clients) {
		select {
		case <-ctx.Done():
			t.Fatalf("cluster %v did not reach cluster_state:ok with %d known masters", c.Addrs(), masters)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return c
}

// ready tells whether every node reports cluster_state:ok and knows every
// master and every slot's owner, so a cluster client's first CLUSTER SLOTS
// sees the whole map.
func (c *PrivateCluster) ready(ctx context.Context, clients []*redis.Client) bool {
	for _, cl := range clients {
		info, err := cl.ClusterInfo(ctx).Result()
		if err != nil || !strings.Contains(info, "cluster_state:ok") {
			return false
		}
		if !strings.Contains(info, "cluster_known_nodes:"+strconv.Itoa(len(clients))) {
			return false
		}
		shards, err := cl.ClusterShards(ctx).Result()
		if err != nil || len(shards) != len(clients) {
			return false
		}
		// With --cluster-require-full-coverage no a node is ok before it
		// has learnt who serves the other slots.
		served := int64(0)
		for _, sh := range shards {
			for _, r := range sh.Slots {
				served += r.End - r.Start + 1
			}
		}
		if served != 16384 {
			return false
		}
	}
	return true
}

// Addrs returns the masters' addresses.
func (c *PrivateCluster) Addrs() []string {
	addrs := make([]string, len(c.Masters))
	for i, m := range c.Masters {
		addrs[i] = m.Addr
	}
	return addrs
}

// Client returns a cluster client of this cluster, closed when the test
// ends. opts may be nil; its Addrs are replaced by the masters'.
func (c *PrivateCluster) Client(t testing.TB, opts *redis.ClusterOptions) *redis.ClusterClient {
	t.Helper()
	o := redis.ClusterOptions{}
	if opts != nil {
		o = *opts
	}
	o.Addrs = c.Addrs()
	cl := redis.NewClusterClient(&o)
	t.Cleanup(func() { cl.Close() })
	return cl
}

// MasterOf returns the master that serves slot (0..16383).
func (c *PrivateCluster) MasterOf(slot int) *Server {
	n := len(c.Masters)
	for i := n - 1; i > 0; i-- {
		if slot >= i*16384/n {
			return c.Masters[i]
		}
	}
	return c.Masters[0]
}
