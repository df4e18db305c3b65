package groundtruth

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/go-redis/redis/v8"
)

// labels reads each case's label from the first line of its comment.
func labels(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "cases.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && Cases[fd.Name.Name] != nil && fd.Doc != nil {
			out[fd.Name.Name] = strings.Fields(fd.Doc.Text())[0]
		}
	}
	for name := range Cases {
		if out[name] == "" {
			t.Fatalf("case %s has no label", name)
		}
	}
	return out
}

// isCrossSlot recognises Redis's CROSSSLOT error and go-redis's own
// refusal of a cluster WATCH over several slots.
func isCrossSlot(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "CROSSSLOT") ||
		strings.Contains(err.Error(), "Watch requires all keys to be in the same slot"))
}

// TestClusterMatchesLabels executes every case through a plain client of
// one master (commands arrive unrouted) and through go-redis v8's cluster
// client, for each of a number of ids. A case labelled with a slot rule
// must fail with a cross-slot error on some input; a clean case must
// never, and must succeed through the cluster client.
func TestClusterMatchesLabels(t *testing.T) {
	// v8.11.5 cannot parse Redis 7's COMMAND reply (10 fields; it takes 6
	// or 7), and its cluster client asks COMMAND again before every command
	// that needs a key position: about 8 ms a command here. 50 ids keep the
	// module's cases near 20 s; the other clients' modules take 200.
	const inputs = 50
	addrs := os.Getenv("SLOTLINT_REDIS_CLUSTER_ADDRS")
	if addrs == "" {
		// As internal/redistest: under CI a missing cluster fails.
		msg := "SLOTLINT_REDIS_CLUSTER_ADDRS is not set: run under scripts/redis-test-env"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	list := strings.Split(addrs, ",")
	ctx := context.Background()
	prefix := os.Getenv("SLOTLINT_GT_PREFIX")
	label := labels(t)
	var names []string
	for name := range Cases {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fn, want := Cases[name], label[name]
		t.Run(name, func(t *testing.T) {
			// New clients per case: v8 may leave a connection inside
			// MULTI after a failed transaction, which would fail the next.
			node := redis.NewClient(&redis.Options{Addr: list[0]})
			defer node.Close()
			// v8.11.5 cannot parse Redis 7's CLUSTER SLOTS (it added a
			// hostname field), so the slot map is read here.
			cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: list,
				ClusterSlots: func(ctx context.Context) ([]redis.ClusterSlot, error) { return clusterSlots(ctx, list[0]) }})
			defer cluster.Close()
			nodeCross, clusterCross, otherErrs := 0, 0, 0
			for i := range inputs {
				// Ids of eight lengths: CRC16 is affine, so two keys that
				// differ only in a fixed part ("gt:hits:", "gt:total:")
				// have slots a fixed XOR apart for ids of one length, and
				// for some lengths never both on the node that gets the
				// unrouted commands. With ids of one or two digits, 1 in 60
				// random prefixes gave txHoles no such input at all.
				id := fmt.Sprintf("%s%0*d", prefix, 1+i%8, i)
				nerr := fn(ctx, node, id)
				cerr := fn(ctx, cluster, id)
				if isCrossSlot(nerr) {
					nodeCross++
				}
				if isCrossSlot(cerr) {
					clusterCross++
				}
				if want == "clean" {
					if isCrossSlot(nerr) || isCrossSlot(cerr) {
						t.Fatalf("clean case failed with a cross-slot error for id %q: node: %v; cluster client: %v", id, nerr, cerr)
					}
					if cerr != nil {
						otherErrs++
					}
				}
			}
			if want == "clean" {
				// v8.11.5 predates Redis 7 and now and then misreads a
				// transaction's replies (EXECABORT with no error queued):
				// that is the client, not the keys, so it is only counted.
				if otherErrs == inputs {
					t.Fatal("clean case never succeeded through the cluster client")
				}
				if otherErrs > 0 {
					t.Logf("%s clean: %d/%d inputs failed through the cluster client without a cross-slot error", name, otherErrs, inputs)
				}
			} else {
				if nodeCross+clusterCross == 0 {
					t.Fatal("labelled " + want + ", but no input failed with a cross-slot error")
				}
				t.Logf("%s %s: CROSSSLOT for %d/%d inputs on a node, %d/%d through the cluster client", name, want, nodeCross, inputs, clusterCross, inputs)
			}
		})
	}
}

// clusterSlots reads CLUSTER SLOTS: start, end, then each node's address
// first as ip and port.
func clusterSlots(ctx context.Context, addr string) ([]redis.ClusterSlot, error) {
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	reply, err := c.Do(ctx, "CLUSTER", "SLOTS").Slice()
	if err != nil {
		return nil, err
	}
	var slots []redis.ClusterSlot
	for _, r := range reply {
		entry, ok := r.([]interface{})
		if !ok || len(entry) < 3 {
			return nil, fmt.Errorf("unexpected CLUSTER SLOTS entry %v", r)
		}
		start, _ := entry[0].(int64)
		end, _ := entry[1].(int64)
		s := redis.ClusterSlot{Start: int(start), End: int(end)}
		for _, n := range entry[2:] {
			addr, ok := n.([]interface{})
			if !ok || len(addr) < 2 {
				return nil, fmt.Errorf("unexpected CLUSTER SLOTS node %v", n)
			}
			ip, _ := addr[0].(string)
			port, _ := addr[1].(int64)
			s.Nodes = append(s.Nodes, redis.ClusterNode{Addr: fmt.Sprintf("%s:%d", ip, port)})
		}
		slots = append(slots, s)
	}
	return slots, nil
}
