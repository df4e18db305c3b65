package keymap_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/keymap"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// shopFamilies are the key families examples/shop's Go code builds,
// written from reading it: each key of a command, a transaction or a
// script's KEYS. Keys a script builds itself inside Lua (KEYS[1] ..
// ':held', a key from ARGV) are not Go keys and are not here.
var shopFamilies = []string{
	// cart
	"cart:{*}:items", "cart:{*}:count", "stats:items-added", "{active}:*", "cart:{*:remind",
	// orders
	"order:{*}:items", "order:{*}", "order:*:status", "order:*:total", "orders:placed", "orders:shipped",
	// inventory
	"stock:{*}", "reservable:*", "{*}:{*}:shelf", "price:{}*", "watchers:{*}", "watchers:*", "notified:{*}",
	// lock, jobs, ratelimit
	"lock:{*}", "jobs:{*}:pending", "jobs:{*}:running", "scheduler:leader", "rate:{*}", "login-failures:{*}",
}

// e2eFamilies are testdata/e2e's: the keys package's builders used by
// app, and the literal keys. passthru's RENAME and generic's Cache.Get
// send keys passed in whole, which name no family; tags/never.go is not
// built.
var e2eFamilies = []string{
	"session:*", "tokens:*", "cart:{*}", "count:a", "count:b", "{stats}:*", "carts:deleted",
	"q:*", "r:*", "a:*", "b:*", "{p}:*", "{p}:x", "old", "new",
}

func TestShopMap(t *testing.T) {
	m, res := mapOf(t, "../../examples/shop")
	checkFamilies(t, m, shopFamilies)
	checkJointFindings(t, m, res)
	f, _ := m.Family("cart:{*}:items")
	if f.Tag != keymap.EntityTag || f.Pattern != "cart:{<userID>}:items" || !slices.Equal(f.Types, []string{"hash"}) {
		t.Errorf("cart:{*}:items: tag %s, pattern %s, types %v; want entity, cart:{<userID>}:items, [hash]", f.Tag, f.Pattern, f.Types)
	}
	if f, _ := m.Family("{active}:*"); f.Tag != keymap.ConstantTag || f.Slot == nil || *f.Slot != 15924 {
		t.Errorf("{active}:* is %s in slot %v, want a constant tag in slot 15924 (CLUSTER KEYSLOT {active})", f.Tag, f.Slot)
	}
	// The one-key families of a lock are reads and writes of a string.
	if f, _ := m.Family("scheduler:leader"); !slices.ContainsFunc(f.Commands, func(c keymap.CommandUse) bool { return c.Name == "SETNX" && c.Access == "write" }) {
		t.Errorf("scheduler:leader commands %v, want SETNX as a write", f.Commands)
	}
}

func TestE2EMap(t *testing.T) {
	m, res := mapOf(t, "../../testdata/e2e")
	checkFamilies(t, m, e2eFamilies)
	checkJointFindings(t, m, res)
	// DEL of session:<id> and tokens:<id> share the hole id: the group's tag.
	g := groupOf(t, m, "session:*")
	if g.Tag != "{<id>}" || g.Verdict != keymap.CrossSlot {
		t.Errorf("group of session:* has tag %q, verdict %s; want {<id>}, cross-slot", g.Tag, g.Verdict)
	}
	want := []keymap.Suggestion{{Family: "session:*", Pattern: "session:{<id>}"}, {Family: "tokens:*", Pattern: "tokens:{<id>}"}}
	if !slices.Equal(g.Suggested, want) {
		t.Errorf("suggested %v, want %v", g.Suggested, want)
	}
	// Fixed keys used together get the tag of their common prefix.
	if g := groupOf(t, m, "count:a"); g.Tag != "{count}" || len(g.Suggested) != 2 || g.Suggested[1].Pattern != "{count}:b" {
		t.Errorf("group of count:a: tag %q, suggested %v; want {count}, {count}:a and {count}:b", g.Tag, g.Suggested)
	}
	if g := groupOf(t, m, "old"); g.Tag != "" || len(g.Suggested) != 0 {
		t.Errorf("old and new share no prefix, yet the group proposes %q %v", g.Tag, g.Suggested)
	}
	// "{stats}:" + id can move to an entity tag; "{p}:" + id cannot
	// without breaking the MGET that pairs it with "{p}:x".
	moves := map[string]*keymap.Move{}
	for _, mv := range m.Moves {
		moves[mv.Family] = mv
	}
	if mv := moves["{stats}:*"]; mv == nil || mv.To != "stats:{<id>}" || mv.Blocked != nil {
		t.Errorf("move of {stats}:* = %+v, want to stats:{<id>}, not blocked", mv)
	}
	if mv := moves["{p}:*"]; mv == nil || mv.Blocked == nil || mv.Blocked.What != "MGET" {
		t.Errorf("move of {p}:* = %+v, want blocked by the MGET", mv)
	}
	// A RENAME of two parameters is a joint use of no family.
	for _, j := range m.Joint {
		if strings.HasSuffix(j.Site.File, "passthru.go") && (j.Verdict != keymap.Unknown || len(j.Families) != 0 || j.Unresolved != 2) {
			t.Errorf("passthru RENAME: %+v, want unknown with 2 unresolved keys", j)
		}
	}
}

// mapOf runs the suite and the key map over a module's packages.
func mapOf(t *testing.T, dir string) (*keymap.Map, *suitetest.Result) {
	t.Helper()
	prog := suitetest.Load(t, suitetest.Config{Dir: dir, Patterns: []string{"./..."}, Tests: true})
	res := suitetest.Run(t, prog, append(analyzer.Analyzers(), keymap.Analyzer)...)
	return keymap.FromGraph(res.Graph), res
}

func checkFamilies(t *testing.T, m *keymap.Map, want []string) {
	t.Helper()
	var got []string
	for _, f := range m.Families {
		got = append(got, f.Name)
		if f.Sites == 0 || len(f.FirstSites) == 0 || len(f.Packages) == 0 {
			t.Errorf("family %s has no site or package: %+v", f.Name, f)
		}
	}
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("families:\n got %q\nwant %q", got, want)
	}
}

// checkJointFindings checks that every finding of a rule on joint uses
// (SL1001-SL1005) is on a joint use of the map, with the rule's ID, and
// that such a use is cross-slot unless the finding only says its keys are
// unresolved.
func checkJointFindings(t *testing.T, m *keymap.Map, res *suitetest.Result) {
	t.Helper()
	n := 0
	for _, f := range res.Findings {
		if !keymap.IsJointRule(f.Category) {
			continue
		}
		n++
		found := 0
		for _, j := range m.Joint {
			if !slices.Contains(j.Rules, f.Category) {
				continue
			}
			for _, jf := range j.Findings {
				if jf.Rule == f.Category && jf.Message == f.Message && jf.Site.File == f.Posn.Filename && jf.Site.Line == f.Posn.Line && jf.Site.Col == f.Posn.Column {
					found++
					if f.Category != rules.UnresolvedKeys && j.Verdict != keymap.CrossSlot {
						t.Errorf("%s: %s on a joint use judged %s", f.Posn, f.Category, j.Verdict)
					}
				}
			}
		}
		switch {
		case found == 0:
			t.Errorf("%s: %s %s is on no joint use of the map", f.Posn, f.Category, f.Message)
		case found > 1:
			t.Errorf("%s: %s %s is credited to %d joint uses, want one", f.Posn, f.Category, f.Message, found)
		}
	}
	if n == 0 {
		t.Error("no finding of a joint-use rule: the check checked nothing")
	}
}

func groupOf(t *testing.T, m *keymap.Map, family string) *keymap.Group {
	t.Helper()
	for _, g := range m.Groups {
		if slices.Contains(g.Families, family) {
			return g
		}
	}
	t.Fatalf("no group holds %s", family)
	return nil
}

// TestFindingCreditedOnce: a runtime call that is two joint uses at one
// position (its keys, and its lock key with the wake-up list) has two
// findings there; each is credited once, to the use it judges.
func TestFindingCreditedOnce(t *testing.T) {
	prog := suitetest.Load(t, suitetest.Config{Dir: "../testdata", Patterns: []string{"./jointonce"}})
	res := suitetest.Run(t, prog, append(analyzer.Analyzers(), keymap.Analyzer)...)
	m := keymap.FromGraph(res.Graph)
	checkJointFindings(t, m, res)
	want := map[keymap.JointKind]string{
		keymap.JointCommand:   `LockAndSet keys "lock:1" (slot 3430) and "state:1" (slot 6240) are in different slots`,
		keymap.JointCompanion: `LockAndSet key "lock:1" (slot 3430) has no hash tag, so its wake-up list "lock:1:wake" (slot 4297) is in another slot`,
	}
	for _, j := range m.Joint {
		w, ok := want[j.Kind]
		if !ok {
			continue
		}
		delete(want, j.Kind)
		if len(j.Findings) != 1 || !strings.HasPrefix(j.Findings[0].Message, w) {
			t.Errorf("%s use at %s: findings %v, want one: %s", j.Kind, j.Site, j.Findings, w)
		}
	}
	if len(want) != 0 {
		t.Errorf("no joint use of kind %v", want)
	}
}

// TestTransactionRuns: a transaction whose commands sit in the two
// branches of an if is judged per run, as txslot reports it: the same
// slot when only one branch's key is queued at a time, a cross-slot use
// when one run queues keys of two slots.
func TestTransactionRuns(t *testing.T) {
	prog := suitetest.Load(t, suitetest.Config{Dir: "../testdata", Patterns: []string{"./txslot"}})
	res := suitetest.Run(t, prog, append(analyzer.Analyzers(), keymap.Analyzer)...)
	m := keymap.FromGraph(res.Graph)
	checkJointFindings(t, m, res)
	want := map[int]keymap.Verdict{
		17: keymap.CrossSlot, // storeToken: refresh and access in one run
		32: keymap.SameSlot,  // eitherBranch: admins or users, never both
	}
	for _, j := range m.Joint {
		if !strings.HasSuffix(j.Site.File, "branches.go") {
			continue
		}
		if v, ok := want[j.Site.Line]; ok {
			delete(want, j.Site.Line)
			if j.Verdict != v {
				t.Errorf("transaction at %s: %s (%s), want %s", j.Site, j.Verdict, j.Reason, v)
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("no joint use at branches.go lines %v", want)
	}
}
