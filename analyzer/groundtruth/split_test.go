package groundtruth

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// splitting is a cluster client configured to follow the server's request
// policies: it sends MGET, DEL and the other multi_shard commands once per
// slot of their keys.
type splitting struct{ rdb *redis.ClusterClient }

func newSplitting(addrs []string) *splitting {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	rdb.SetCommandInfoResolver(rdb.NewDynamicResolver())
	return &splitting{rdb: rdb}
}

// mgetSplit reads keys of two slots: split per slot, it succeeds, and a
// read loses nothing by the split. The analyzer must stay quiet.
func (s *splitting) mgetSplit(ctx context.Context, id string) ([]any, error) {
	return s.rdb.MGet(ctx, "gt:split:a:"+id, "gt:split:b:"+id).Result()
}

// delSplit deletes keys of two slots: split per slot, it succeeds but is
// not atomic. The analyzer must report it (SL1002), as a loss of
// atomicity.
func (s *splitting) delSplit(ctx context.Context, id string) (int64, error) {
	return s.rdb.Del(ctx, "gt:split:a:"+id, "gt:split:b:"+id).Result()
}

// splitFindings are the slot findings inside each method of splitting,
// from the whole suite run over this package's test variant (loaded once
// for every test of the binary).
func splitFindings(t *testing.T) map[string][]string {
	t.Helper()
	prog := suitetest.Load(t, suitetest.Config{Dir: ".", Patterns: []string{"."}, Tests: true})
	test := prog.Package(t, ".", "test")
	res := suitetest.Run(t, &suitetest.Program{Dir: prog.Dir, Packages: []*packages.Package{test}}, analyzer.Analyzers()...)
	methods := map[string]bool{}
	for _, f := range test.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && (fd.Name.Name == "mgetSplit" || fd.Name.Name == "delSplit") {
				methods[fd.Name.Name] = true
			}
		}
	}
	if len(methods) != 2 {
		t.Fatalf("methods mgetSplit and delSplit: found %v", methods)
	}
	out := map[string][]string{}
	for name, fs := range res.ByFunc(test) {
		for _, f := range fs {
			if methods[name] && SlotRules[f.Category] {
				out[name] = append(out[name], f.Category+" "+f.Message)
			}
		}
	}
	return out
}

// TestSplittingClient checks, on the harness cluster with go-redis v9.23.0
// and NewDynamicResolver, what the analyzer says of a client that splits
// multi-key commands per slot: MGET of keys in two slots succeeds (no
// finding), DEL of keys in two slots succeeds and deletes both (a finding
// about atomicity, not CROSSSLOT), and the same commands through the
// default cluster client fail with CROSSSLOT for some inputs, which shows
// the keys did span slots.
func TestSplittingClient(t *testing.T) {
	found := splitFindings(t)
	if got := found["mgetSplit"]; len(got) != 0 {
		t.Errorf("a read split per slot is reported: %v", got)
	}
	if got := found["delSplit"]; len(got) != 1 || !strings.HasPrefix(got[0], "SL1002 ") || !strings.Contains(got[0], "not atomic") || strings.Contains(got[0], "CROSSSLOT risk") {
		t.Errorf("a write split per slot: got %v, want one SL1002 about atomicity", got)
	}

	addrs := redistest.ClusterAddrs(t)
	s := newSplitting(addrs)
	t.Cleanup(func() { s.rdb.Close() })
	plain := redistest.Cluster(t)
	node := redistest.ClusterNode(t)
	prefix := redistest.Prefix(t)
	ctx := context.Background()
	crossMGet, crossDel, crossNode := 0, 0, 0
	for i := range 50 {
		id := fmt.Sprintf("%s%d", prefix, i)
		a, b := "gt:split:a:"+id, "gt:split:b:"+id
		if err := plain.Set(ctx, a, "1", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := plain.Set(ctx, b, "2", 0).Err(); err != nil {
			t.Fatal(err)
		}
		vals, err := s.mgetSplit(ctx, id)
		if err != nil || len(vals) != 2 || vals[0] != "1" || vals[1] != "2" {
			t.Fatalf("MGET through the splitting client, id %q: %v, %v", id, vals, err)
		}
		if err := plain.MGet(ctx, a, b).Err(); isCrossSlot(err) {
			crossMGet++
		}
		if err := plain.Del(ctx, a, b).Err(); isCrossSlot(err) {
			crossDel++
		}
		if err := node.Del(ctx, a, b).Err(); isCrossSlot(err) {
			crossNode++
		}
		n, err := s.delSplit(ctx, id)
		if err != nil || n != 2 {
			t.Fatalf("DEL through the splitting client, id %q: %d, %v (want 2 deleted)", id, n, err)
		}
	}
	if crossMGet == 0 || crossDel == 0 || crossNode == 0 {
		t.Fatalf("no input put the keys in two slots (CROSSSLOT of 50: MGET %d, DEL %d through the default cluster client, DEL %d through a plain node client)", crossMGet, crossDel, crossNode)
	}
	t.Logf("CROSSSLOT of 50: MGET %d, DEL %d through the default cluster client, DEL %d through a plain node client; the splitting client: all succeeded", crossMGet, crossDel, crossNode)
}

// TestTxCrossSlotRefusedBeforeSending checks what SL1003's doc says of
// go-redis v9.23.0 (since v9.11): a TxPipeline whose keys are in two slots
// fails with CROSSSLOT and nothing of it reaches Redis (before v9.11 it
// was split into one MULTI/EXEC per slot, and each slot's part ran).
func TestTxCrossSlotRefusedBeforeSending(t *testing.T) {
	cluster := redistest.Cluster(t)
	prefix := redistest.Prefix(t)
	ctx := context.Background()
	refused := 0
	for i := range 50 {
		id := fmt.Sprintf("%s%d", prefix, i)
		a, b := "gt:tx:a:"+id, "gt:tx:b:"+id
		pipe := cluster.TxPipeline()
		pipe.Set(ctx, a, 1, 0)
		pipe.Set(ctx, b, 2, 0)
		_, err := pipe.Exec(ctx)
		if err == nil {
			continue // both keys in one slot
		}
		if !errors.Is(err, redis.ErrCrossSlot) {
			t.Fatalf("id %q: %v, want redis.ErrCrossSlot", id, err)
		}
		refused++
		n, err := cluster.Exists(ctx, a).Result()
		if err != nil {
			t.Fatal(err)
		}
		m, err := cluster.Exists(ctx, b).Result()
		if err != nil {
			t.Fatal(err)
		}
		if n+m != 0 {
			t.Fatalf("id %q: the refused transaction still wrote %d of its keys", id, n+m)
		}
	}
	if refused == 0 {
		t.Fatal("no input put the transaction's keys in two slots")
	}
}
