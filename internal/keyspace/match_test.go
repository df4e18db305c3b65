package keyspace

import (
	"slices"
	"testing"

	"github.com/slotlint/slotlint/slot"
)

type testHole string

func (testHole) SlotHoleID() {}

// key builds a symbolic key: strings starting with '<' are holes.
func key(parts ...string) slot.Key {
	ks := make([]slot.Key, len(parts))
	for i, p := range parts {
		if len(p) > 1 && p[0] == '<' {
			ks[i] = slot.HoleKey(testHole(p), p)
		} else {
			ks[i] = slot.Literal(p)
		}
	}
	return slot.Concat(ks...)
}

func TestMatcher(t *testing.T) {
	patterns := []Pattern{
		{"user", key("user:", "<id>")},
		{"user-tagged", key("user:{", "<id>", "}")},
		{"order-lock", key("order:{", "<id>", "}:lock")},
		{"config", key("config:limit")},
		{"pair", key("pair:", "<a>", "<b>")},
		{"between", key("a:", "<x>", ":b:", "<y>", ":c")},
		{"any", key("<k>")},
	}
	cases := []struct {
		key, family string
	}{
		{"user:42", "user"},
		{"user:{42}", "user-tagged"}, // more literal bytes than "user:" + id
		{"user:", "any"},             // a hole is never empty
		{"order:{7}:lock", "order-lock"},
		{"order:{}:lock", "any"},
		{"order:{7}:lockx", "any"},
		{"config:limit", "config"},
		{"config:limit2", "any"},
		{"pair:x", "any"}, // two holes need two bytes
		{"pair:xy", "pair"},
		{"a:1:b:2:c", "between"},
		{"a::b:2:c", "any"},
		{"a:1:b:2:b:3:c", "between"}, // the first hole holds ":b:2"... or the second does
		{"a:1:b::c", "any"},
		{"", ""},
	}
	m := NewMatcher(patterns)
	reversed := slices.Clone(patterns)
	slices.Reverse(reversed)
	mr := NewMatcher(reversed)
	for _, c := range cases {
		got, ok := m.Match(c.key)
		if !ok {
			got = ""
		}
		if got != c.family {
			t.Errorf("Match(%q) = %q, want %q", c.key, got, c.family)
		}
		if again, _ := mr.Match(c.key); again != got {
			t.Errorf("Match(%q) depends on the patterns' order: %q, then %q", c.key, got, again)
		}
	}
}

// TestMatcherTies: equal literal bytes and holes fall to the family name.
func TestMatcherTies(t *testing.T) {
	m := NewMatcher([]Pattern{{"b", key("x:", "<id>")}, {"a", key("<id>", ":x")}})
	if got, _ := m.Match("x:x"); got != "a" {
		t.Errorf("tie went to %q, want the first name, a", got)
	}
}

func TestUnmatchedPrefix(t *testing.T) {
	for k, want := range map[string]string{
		"legacy:7:x": "legacy:*", "legacy:8": "legacy:*", "tmp42": "tmp*", "tmp": "tmp*",
		"42": "*", "": "*", "{tag}x": "{*", "a/b": "a/*", "cache.v1": "cache.*",
	} {
		if got := UnmatchedPrefix(k); got != want {
			t.Errorf("UnmatchedPrefix(%q) = %q, want %q", k, got, want)
		}
	}
}

func TestSlotOrderedScan(t *testing.T) {
	for _, c := range []struct {
		info map[string]string
		want bool
	}{
		{map[string]string{"redis_version": "7.0.15"}, false},
		{map[string]string{"redis_version": "7.2.4"}, false},
		{map[string]string{"redis_version": "7.4.0"}, true},
		{map[string]string{"redis_version": "8.2.1"}, true},
		{map[string]string{"redis_version": "7.2.4", "valkey_version": "7.2.5"}, false},
		{map[string]string{"redis_version": "7.2.4", "valkey_version": "8.0.1"}, true},
		{map[string]string{"redis_version": "garbage"}, false},
		{map[string]string{}, false},
	} {
		if got := slotOrderedScan(c.info); got != c.want {
			t.Errorf("slotOrderedScan(%v) = %v, want %v", c.info, got, c.want)
		}
	}
}

// TestAllot: the budget is spread in proportion to DBSIZE and never
// exceeded, the leftover keys going to the largest remainders.
func TestAllot(t *testing.T) {
	for _, c := range []struct {
		budget int
		sizes  []int64
		want   []int
	}{
		{10, []int64{50, 30, 20}, []int{5, 3, 2}},
		{10, []int64{1, 1, 1}, []int{3, 3, 3}}, // DBSIZE and a share of the rest, within the budget
		{3, []int64{100, 100, 100}, []int{1, 1, 1}},
		{2, []int64{100, 100, 100}, []int{1, 1, 0}},
		{7, []int64{0, 10, 60}, []int{0, 1, 6}},
		{5, []int64{0, 0}, []int{0, 0}},
	} {
		s := &sampler{opts: &Options{BudgetKeys: c.budget}}
		for _, d := range c.sizes {
			s.nodes = append(s.nodes, &nodeRun{dbsize: d})
		}
		s.allot()
		var got []int
		sum := 0
		for _, n := range s.nodes {
			got = append(got, n.budget)
			sum += n.budget
		}
		if !slices.Equal(got, c.want) || sum > c.budget {
			t.Errorf("allot(%d, %v) = %v, want %v", c.budget, c.sizes, got, c.want)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []Options{
		{},
		{Seeds: []string{"x:1"}, BudgetKeys: -1},
		{Seeds: []string{"x:1"}, Count: -5},
		{Seeds: []string{"x:1"}, HotShare: 1.5},
		{Seeds: []string{"x:1"}, TimeBudget: -1},
	} {
		if _, err := o.withDefaults(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	for _, seed := range []string{"no-port", "redis://[bad", "http://x:1"} {
		if _, err := parseSeed(seed); err == nil {
			t.Errorf("parseSeed(%q): no error", seed)
		}
	}
}

func TestParseClusterNodes(t *testing.T) {
	text := `07c3 127.0.0.1:30004@31004 slave e7d1 0 1426238317239 4 connected
67ed 127.0.0.1:30002@31002,host2 master - 0 1426238316232 2 connected 5461-10922
292f 127.0.0.1:30003@31003 master,fail - 0 1426238318243 3 disconnected 10923-16383
e7d1 127.0.0.1:30001@31001 myself,master - 0 0 1 connected 0-5460 [5461->-67ed]
`
	got, err := parseClusterNodes(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []shard{
		{slots: []SlotRange{{0, 5460}}, master: shardNode{"127.0.0.1:30001", true}, replicas: []shardNode{{"127.0.0.1:30004", true}}},
		{slots: []SlotRange{{5461, 10922}}, master: shardNode{"127.0.0.1:30002", true}},
		{slots: []SlotRange{{10923, 16383}}, master: shardNode{"127.0.0.1:30003", false}},
	}
	if !slices.EqualFunc(got, want, shardEqual) {
		t.Errorf("parseClusterNodes =\n%+v\nwant\n%+v", got, want)
	}
	if _, err := parseClusterNodes("a h:1@2 master - 0 0 1 connected x-y\n"); err == nil {
		t.Error("a bad slot range: no error")
	}
	if _, err := parseClusterNodes("short line\n"); err == nil {
		t.Error("a short line: no error")
	}
}

func shardEqual(a, b shard) bool {
	return slices.Equal(a.slots, b.slots) && a.master == b.master && slices.Equal(a.replicas, b.replicas)
}
