package redisapi

import (
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// goRedisV8Module is the test module that pins go-redis v8.11.5, so the
// main module does not depend on it.
var goRedisV8Module = filepath.Join("..", "..", "testdata", "clients", "goredisv8")

func goRedisV8Types(t *testing.T) *types.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: goRedisV8Module,
		Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=")}
	pkgs, err := packages.Load(cfg, GoRedisV8)
	if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading go-redis v8: %v %v", err, pkgs)
	}
	return pkgs[0].Types
}

// absentInV8 are table methods go-redis v8.11.5 does not have: their
// commands are newer than v8. The front end never meets them in v8 code.
var absentInV8 = []string{
	"Cmdable.BLMPop", "Cmdable.BLMoveM", "Cmdable.BZMPop", "Cmdable.BitOpAndOr", "Cmdable.BitOpDiff",
	"Cmdable.BitOpDiff1", "Cmdable.BitOpOne", "Cmdable.CMSMerge", "Cmdable.CMSMergeWithWeight",
	"Cmdable.EvalRO", "Cmdable.EvalShaRO", "Cmdable.FCall", "Cmdable.FCallRO", "Cmdable.FCallRo",
	"Cmdable.JSONMGet", "Cmdable.LCS", "Cmdable.LMPop", "Cmdable.LMoveM", "Cmdable.MSetEX",
	"Cmdable.SDiffCard", "Cmdable.SInterCard", "Cmdable.SUnionCard", "Cmdable.TDigestMerge",
	"Cmdable.TSCreateRule", "Cmdable.TSCreateRuleWithArgs", "Cmdable.TSDeleteRule",
	"Cmdable.ZInterCard", "Cmdable.ZMPop", "Script.EvalRO", "Script.EvalShaRO", "Script.RunRO",
}

// TestTableMatchesGoRedisV8: the go-redis method table read on v8 code
// means the same there: each table method v8 has takes its keys where v9
// does, and the methods v8 lacks are exactly the known ones.
func TestTableMatchesGoRedisV8(t *testing.T) {
	var absent []string
	checkTable(t, goRedisV8Types(t), func(name string) { absent = append(absent, name) })
	sort.Strings(absent)
	if got, want := strings.Join(absent, " "), strings.Join(absentInV8, " "); got != want {
		t.Errorf("table methods absent from go-redis v8:\n got %s\nwant %s", got, want)
	}
}

// TestTableIsCompleteForV8: every v8 method with several keys is read.
func TestTableIsCompleteForV8(t *testing.T) {
	if missing := missingFromTable(goRedisV8Types(t)); len(missing) > 0 {
		t.Errorf("go-redis v8 methods with several keys missing from the table: %s", strings.Join(missing, ", "))
	}
}
