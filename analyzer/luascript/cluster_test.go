package luascript_test

import (
	"context"
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/analyzer/luascript"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// The cases below are analysed (TestCrossLanguageFindings) and executed on
// the harness cluster (TestCrossLanguageOnCluster). Each script is called by
// two functions that differ only in the tag of what they pass.

// lockJob takes a lock next to the job it is given: safe on a cluster only
// when the caller's KEYS[1] carries a hash tag.
var lockJob = redis.NewScript(`#!lua
local lock = KEYS[1] .. ':lock'
if redis.call('SET', lock, ARGV[1], 'NX', 'PX', 60000) then
  return redis.call('HINCRBY', KEYS[1], 'runs', 1)
end
return 0`)

func lockJobTagged(ctx context.Context, rdb redis.Scripter, id string) error {
	return lockJob.Run(ctx, rdb, []string{"job:{" + id + "}"}, "me").Err()
}

func lockJobUntagged(ctx context.Context, rdb redis.Scripter, id string) error {
	return lockJob.Run(ctx, rdb, []string{"job:" + id}, "me").Err()
}

// countTotal counts into a key built from a prefix passed in ARGV: safe
// when that prefix carries the tag of KEYS[1].
var countTotal = redis.NewScript(`#!lua
redis.call('INCR', KEYS[1])
return redis.call('INCR', ARGV[1] .. ':total')`)

func countTotalTagged(ctx context.Context, rdb redis.Scripter, id string) error {
	prefix := "stats:{" + id + "}"
	return countTotal.Run(ctx, rdb, []string{prefix + ":hits"}, prefix).Err()
}

func countTotalUntagged(ctx context.Context, rdb redis.Scripter, id string) error {
	return countTotal.Run(ctx, rdb, []string{"stats:{" + id + "}:hits"}, "stats:"+id).Err()
}

type crossCase struct {
	call func(context.Context, redis.Scripter, string) error
	rule string // "" when the call is safe
	// keys are the keys a call for id leaves behind.
	keys func(id string) []string
}

var crossCases = map[string]crossCase{
	"lockJobTagged":   {lockJobTagged, "", func(id string) []string { return []string{"job:{" + id + "}", "job:{" + id + "}:lock"} }},
	"lockJobUntagged": {lockJobUntagged, "LUA202", func(id string) []string { return []string{"job:" + id, "job:" + id + ":lock"} }},
	"countTotalTagged": {countTotalTagged, "", func(id string) []string {
		return []string{"stats:{" + id + "}:hits", "stats:{" + id + "}:total"}
	}},
	"countTotalUntagged": {countTotalUntagged, "LUA201", func(id string) []string {
		return []string{"stats:{" + id + "}:hits", "stats:" + id + ":total"}
	}},
}

// TestCrossLanguageFindings: the analyzer reports each unsafe caller under
// its rule and nothing in the safe ones, although the script is the same.
func TestCrossLanguageFindings(t *testing.T) {
	prog := suitetest.Load(t, suitetest.Config{Dir: ".", Patterns: []string{"."}, Tests: true})
	test := prog.Package(t, ".", "xtest")
	res := suitetest.Run(t, prog, luascript.Analyzer)
	funcs := res.ByFunc(test)
	got := map[string][]string{}
	for name, fs := range funcs {
		for _, f := range fs {
			got[name] = append(got[name], f.Category+" "+f.Message)
		}
	}
	declared := map[string]bool{}
	for _, f := range test.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				declared[fd.Name.Name] = true
			}
		}
	}
	for name, c := range crossCases {
		if !declared[name] {
			t.Fatalf("case %s not found", name)
		}
		switch {
		case c.rule == "" && len(got[name]) > 0:
			t.Errorf("%s is safe but the analyzer reports %q", name, got[name])
		case c.rule != "" && (len(got[name]) != 1 || !strings.HasPrefix(got[name][0], c.rule+" ")):
			t.Errorf("%s: want one %s finding, got %q", name, c.rule, got[name])
		}
	}
}

// isSlotError recognises Redis's refusal of a script key outside the slot
// of its KEYS: another slot on the same node (with #!lua) or another node.
func isSlotError(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "do not hash to the same slot") ||
		strings.Contains(err.Error(), "non local key"))
}

// TestCrossLanguageOnCluster runs every case on the harness cluster for 200
// ids: a safe case never fails; an unsafe one fails with Redis's slot error
// for some id, and with no other error.
func TestCrossLanguageOnCluster(t *testing.T) {
	rdb := redistest.Cluster(t)
	ctx := context.Background()
	prefix := redistest.Prefix(t)
	for name, c := range crossCases {
		t.Run(name, func(t *testing.T) {
			failed := 0
			for i := 0; i < 200; i++ {
				id := fmt.Sprintf("%s%s:%d", prefix, name, i)
				t.Cleanup(func() {
					for _, k := range c.keys(id) {
						rdb.Del(context.Background(), k)
					}
				})
				err := c.call(ctx, rdb, id)
				switch {
				case err == nil || err == redis.Nil:
				case isSlotError(err):
					failed++
				default:
					t.Fatalf("id %s: %v", id, err)
				}
			}
			t.Logf("%d of 200 ids failed with the slot error", failed)
			if c.rule == "" && failed > 0 {
				t.Errorf("safe case failed for %d of 200 ids", failed)
			}
			if c.rule != "" && failed == 0 {
				t.Errorf("unsafe case never failed in 200 ids")
			}
		})
	}
}
