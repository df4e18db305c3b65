package groundtruth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/valkey-io/valkey-go"
)

// The harness (scripts/redis-test-env) gives the cluster's masters here.
const envCluster = "SLOTLINT_REDIS_CLUSTER_ADDRS"

// Labels reads each case's label from the first line of its comment.
func Labels(t *testing.T) map[string]string {
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

// crossSlotPanics are valkey-go's own refusals of a command or transaction
// over several slots, which a cluster client raises before sending it.
var crossSlotPanics = []string{
	"multi key command with different key slots are not allowed",
	"cross slot command in Dedicated is prohibited",
	"Mixing no-slot and cross slot commands in DoMulti is prohibited",
}

func isCrossSlot(err error) bool {
	if err == nil {
		return false
	}
	if strings.Contains(err.Error(), "CROSSSLOT") {
		return true
	}
	for _, p := range crossSlotPanics {
		if strings.Contains(err.Error(), p) {
			return true
		}
	}
	return false
}

// clusterOnly are cases whose commands depend on the client's mode: the
// helpers split keys per slot only on a cluster client, and send one
// MGET, MSET or DEL over every key on a single-node client.
var clusterOnly = map[string]bool{"helpers": true}

// run runs a case, turning the client's panic into an error.
func run(fn Case, ctx context.Context, c valkey.Client, id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn(ctx, c, id)
}

func connect(t *testing.T, opt valkey.ClientOption) valkey.Client {
	t.Helper()
	opt.DisableCache = true
	opt.ConnWriteTimeout = 10 * time.Second
	c, err := valkey.NewClient(opt)
	if err != nil {
		t.Fatalf("connecting to %v: %v", opt.InitAddress, err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestClusterMatchesLabels executes every case for 200 inputs through a
// single-node client of one master (commands arrive unrouted, so keys of
// one node in different slots meet CROSSSLOT) and through the cluster
// client (which refuses a command over several slots itself). A case
// labelled with a slot rule must meet a cross-slot error on some input; a
// clean case never, and it must succeed through the cluster client.
func TestClusterMatchesLabels(t *testing.T) {
	addrs := os.Getenv(envCluster)
	if addrs == "" {
		msg := envCluster + " is not set: run under scripts/redis-test-env"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	masters := strings.Split(addrs, ",")
	node := connect(t, valkey.ClientOption{InitAddress: masters[:1], ForceSingleClient: true})
	cluster := connect(t, valkey.ClientOption{InitAddress: masters})
	if cluster.Mode() != valkey.ClientModeCluster {
		t.Fatalf("%s is not a cluster: client mode %v", addrs, cluster.Mode())
	}
	label := Labels(t)
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	prefix := "slotlint-test:" + hex.EncodeToString(b[:]) + ":"
	var inputs []string
	for i := range 200 {
		inputs = append(inputs, fmt.Sprintf("%s%d", prefix, i))
	}
	var names []string
	for name := range Cases {
		names = append(names, name)
	}
	sort.Strings(names)
	ctx := context.Background()
	for _, name := range names {
		fn, want := Cases[name], label[name]
		t.Run(name, func(t *testing.T) {
			nodeCross, clusterCross := 0, 0
			for _, id := range inputs {
				nerr := run(fn, ctx, node, id)
				cerr := run(fn, ctx, cluster, id)
				if isCrossSlot(nerr) {
					nodeCross++
				}
				if isCrossSlot(cerr) {
					clusterCross++
				}
				if clusterOnly[name] {
					nerr = nil
				}
				if want == "clean" {
					if isCrossSlot(nerr) || isCrossSlot(cerr) {
						t.Fatalf("clean case failed with a cross-slot error for id %q: node: %v; cluster client: %v", id, nerr, cerr)
					}
					if cerr != nil {
						t.Fatalf("clean case failed through the cluster client for id %q: %v", id, cerr)
					}
				}
			}
			if want != "clean" {
				if nodeCross+clusterCross == 0 {
					t.Fatalf("labelled %s, but no input of %d failed with a cross-slot error", want, len(inputs))
				}
				t.Logf("%s: cross-slot error for %d/%d inputs on a node, %d/%d through the cluster client",
					want, nodeCross, len(inputs), clusterCross, len(inputs))
			}
		})
	}
}
