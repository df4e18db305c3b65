package groundtruth

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// Scripts that build a key in Lua from a prefix the caller passes in ARGV,
// next to a key in KEYS (as queue libraries do). The #!lua shebang makes
// Redis refuse any key of another slot than the declared ones, on every
// node, so the cluster confirms each label for some inputs.
var gtClaim = redis.NewScript(`#!lua
redis.call("SET", KEYS[1], "1")
return redis.call("SET", ARGV[1] .. "x", "1")`)

func gtReady(q string) string      { return "gt:b:{" + q + "}:ready" }
func gtTaskPrefix(q string) string { return "gt:b:{" + q + "}:t:" }

// gtClaimIn runs the script for a key its callers build: every caller
// passes a key of the queue's tag.
func gtClaimIn(ctx context.Context, c redis.UniversalClient, key, qname string) error {
	return gtClaim.Run(ctx, c, []string{key}, gtTaskPrefix(qname)).Err()
}

// gtClaimPlainIn is called with a key without the tag.
func gtClaimPlainIn(ctx context.Context, c redis.UniversalClient, key, qname string) error {
	return gtClaim.Run(ctx, c, []string{key}, gtTaskPrefix(qname)).Err()
}

// gtRun runs whatever script it is given.
func gtRun(ctx context.Context, c redis.UniversalClient, s *redis.Script, keys []string, args ...any) error {
	return s.Run(ctx, c, keys, args...).Err()
}

// bindingCases are calls whose script's keys depend on what Go passes in
// KEYS and ARGV. where is the function the finding is reported in: the
// case itself, or the helper that runs the script for its callers.
var bindingCases = []struct {
	name, label, where string
	fn                 caseFunc
}{
	{"argvPrefix", "LUA201", "", func(ctx context.Context, c redis.UniversalClient, id string) error {
		return gtClaim.Run(ctx, c, []string{gtReady(id)}, "gt:b:"+id+":t:").Err()
	}},
	{"argvPrefixTagged", "clean", "", func(ctx context.Context, c redis.UniversalClient, id string) error {
		return gtClaim.Run(ctx, c, []string{gtReady(id)}, gtTaskPrefix(id)).Err()
	}},
	{"argvSpreadTagged", "clean", "", func(ctx context.Context, c redis.UniversalClient, id string) error {
		argv := []any{gtTaskPrefix(id)}
		return gtClaim.Run(ctx, c, []string{gtReady(id)}, argv...).Err()
	}},
	{"helperTagged", "clean", "gtClaimIn", func(ctx context.Context, c redis.UniversalClient, id string) error {
		return gtClaimIn(ctx, c, gtReady(id), id)
	}},
	{"helperPlain", "LUA201", "gtClaimPlainIn", func(ctx context.Context, c redis.UniversalClient, id string) error {
		return gtClaimPlainIn(ctx, c, "gt:b:"+id+":ready", id)
	}},
	{"runnerTagged", "clean", "", func(ctx context.Context, c redis.UniversalClient, id string) error {
		return gtRun(ctx, c, gtClaim, []string{gtReady(id)}, gtTaskPrefix(id))
	}},
	{"runnerPlain", "LUA201", "", func(ctx context.Context, c redis.UniversalClient, id string) error {
		return gtRun(ctx, c, gtClaim, []string{gtReady(id)}, "gt:b:"+id+":t:")
	}},
}

// bindingRules are the script rules the cluster confirms.
var bindingRules = map[string]bool{"LUA201": true, "LUA202": true, "SL1201": true}

// TestBindingMatchesLabels: the analyzers report exactly each case's label
// in the function it names (function literals are found by the line the
// case starts on).
func TestBindingMatchesLabels(t *testing.T) {
	prog := suitetest.Load(t, suitetest.Config{Dir: ".", Patterns: []string{"."}, Tests: true})
	test := prog.Package(t, ".", "test")
	res := suitetest.Run(t, prog, analyzer.Analyzers()...)
	byFunc := res.ByFunc(test)
	lines := caseLines(t, test)
	for _, bc := range bindingCases {
		var got []string
		if bc.where != "" {
			for _, f := range byFunc[bc.where] {
				if bindingRules[f.Category] {
					got = append(got, f.Category)
				}
			}
		} else {
			for _, f := range res.Findings {
				p := test.Fset.Position(f.Pos)
				if f.Package == test && bindingRules[f.Category] && strings.HasSuffix(p.Filename, "binding_test.go") && p.Line >= lines[bc.name][0] && p.Line <= lines[bc.name][1] {
					got = append(got, f.Category)
				}
			}
		}
		checkLabel(t, bc.name, bc.label, got)
	}
}

// isScriptCrossSlot recognises Redis's refusal of a script key outside
// the declared keys' slot (shebang scripts) or node (the others).
func isScriptCrossSlot(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "do not hash to the same slot") ||
		strings.Contains(err.Error(), "non local key"))
}

// TestBindingOnCluster runs every binding case through a plain client of
// one master and through the cluster client for 200 inputs: a labelled
// case must be refused for some input, a clean one never, and must succeed
// through the cluster client.
func TestBindingOnCluster(t *testing.T) {
	node := redistest.ClusterNode(t)
	cluster := redistest.Cluster(t)
	prefix := redistest.Prefix(t)
	ctx := context.Background()
	for _, bc := range bindingCases {
		t.Run(bc.name, func(t *testing.T) {
			nodeBad, clusterBad := 0, 0
			for i := range 200 {
				id := fmt.Sprintf("%s%d", prefix, i)
				nerr, cerr := bc.fn(ctx, node, id), bc.fn(ctx, cluster, id)
				if isScriptCrossSlot(nerr) {
					nodeBad++
				}
				if isScriptCrossSlot(cerr) {
					clusterBad++
				}
				if bc.label == "clean" && (isScriptCrossSlot(nerr) || cerr != nil) {
					t.Fatalf("clean case failed for id %q: node: %v; cluster client: %v", id, nerr, cerr)
				}
			}
			if bc.label != "clean" && nodeBad+clusterBad == 0 {
				t.Fatalf("labelled %s, but Redis accepted every one of 200 inputs", bc.label)
			}
			t.Logf("%s: refused for %d/200 inputs on a node, %d/200 through the cluster client", bc.label, nodeBad, clusterBad)
		})
	}
}

// caseLines finds the first and last line of each binding case's entry.
func caseLines(t *testing.T, pkg *packages.Package) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	for _, f := range pkg.Syntax {
		if !strings.HasSuffix(pkg.Fset.File(f.Pos()).Name(), "binding_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) != 4 {
				return true
			}
			name, ok := lit.Elts[0].(*ast.BasicLit)
			if !ok || name.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(name.Value); err == nil {
				out[s] = [2]int{pkg.Fset.Position(lit.Pos()).Line, pkg.Fset.Position(lit.End()).Line}
			}
			return false
		})
	}
	for _, bc := range bindingCases {
		if _, ok := out[bc.name]; !ok {
			t.Fatalf("binding case %s not found", bc.name)
		}
	}
	return out
}
