package keysout

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/slotlint/slotlint/internal/keyspace"
)

// liveReport is a partial run on a cluster: {stats}:* piles onto its slot,
// session:* spreads, cart:{*} and tokens:* have no sampled key, and one
// master did not answer.
func liveReport() *keyspace.Report {
	return &keyspace.Report{
		Cluster: true, BudgetKeys: 1000, Sampled: 1000, EstimatedKeys: 2000, EstimatedMemory: 300000, HotShare: 0.1,
		Nodes: []keyspace.NodeReport{
			{Addr: "10.0.0.1:7000", Slots: []keyspace.SlotRange{{Start: 0, End: 8191}}, Version: "7.0.15", DBSize: 1600, Budget: 800, Sampled: 800},
			{Addr: "10.0.0.2:7000", Slots: []keyspace.SlotRange{{Start: 8192, End: 16383}}, Version: "7.0.15", DBSize: 400, Budget: 200, Sampled: 200},
		},
		Families: []keyspace.FamilyReport{
			{Family: "{stats}:*", Seen: 700, Estimated: 1400, KeyShare: 0.7, MemoryBytes: 280000, MemorySampled: 50, MemoryShare: 0.93,
				Types: map[string]int{"string": 700}, Slots: 1, TopSlot: 7650, TopSlotShare: 1,
				Nodes: []keyspace.NodeShare{{Addr: "10.0.0.1:7000", Seen: 700, Estimated: 1400}},
				Hot:   &keyspace.HotSpot{Scope: "slot", Slot: 7650, Addr: "10.0.0.1:7000", KeyShare: 0.7, MemoryShare: 0.93, Threshold: 0.1}},
			{Family: "session:*", Seen: 250, Estimated: 500, KeyShare: 0.25, MemoryBytes: 20000, MemorySampled: 50, MemoryShare: 0.07, TTLShare: 1,
				Types: map[string]int{"hash": 250}, Slots: 240, TopSlot: 12, TopSlotShare: 0.008,
				Nodes: []keyspace.NodeShare{{Addr: "10.0.0.1:7000", Seen: 100, Estimated: 200}, {Addr: "10.0.0.2:7000", Seen: 150, Estimated: 300}}},
		},
		Unmatched:      []keyspace.PrefixReport{{Prefix: "legacy:*", Seen: 50, Estimated: 100, Example: "legacy:7"}},
		Errors:         []keyspace.NodeError{{Addr: "10.0.0.3:7000", Slots: []keyspace.SlotRange{{Start: 10000, End: 10001}}, Err: errors.New("i/o timeout")}},
		Partial:        true,
		PartialReasons: []string{"10.0.0.3:7000 (slots 10000-10001): i/o timeout"},
		Warnings:       []string{},
	}
}

func TestLiveText(t *testing.T) {
	m := sample()
	AttachLive(m, liveReport())
	var b bytes.Buffer
	if err := Text(&b, m); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"app/app.go:10:2  1400 keys (70.0%), 273.4 KiB, ttl 0.0%, 1 slot, HOT\n",
		"app/app.go:10:2  500 keys (25.0%), 19.5 KiB, ttl 100.0%, 240 slots\n",
		"app/app.go:10:2  no key sampled\n",
		"\nlive: 2 masters of a cluster, 1000 of 2000 keys sampled (key budget 1000)\n",
		"\n  {stats}:<id> piles onto slot 7650 on 10.0.0.1:7000: 70.0% of the keys, 93.0% of the memory (threshold 10%)\n",
		"\nPREFIX    SEEN  ESTIMATED  EXAMPLE\nlegacy:*  50    100        \"legacy:7\"\n",
		"\nthe live report is partial:\n  10.0.0.3:7000 (slots 10000-10001): i/o timeout\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

// TestLiveJSONMatchesSchema: the live sections follow the strict schema,
// a family without sampled keys included.
func TestLiveJSONMatchesSchema(t *testing.T) {
	s := schema(t)
	m := sample()
	AttachLive(m, liveReport())
	var b bytes.Buffer
	if err := JSON(&b, m); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("-json -redis does not match keys.schema.json: %v\n%s", err, b.String())
	}
	for _, want := range []string{`"error": "i/o timeout"`, `"hot": {`, `"topSlot": -1`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("-json -redis has no %s:\n%s", want, b.String())
		}
	}
}

// TestLiveHTML: the page shows each family's live summary and the run's
// text, escaped.
func TestLiveHTML(t *testing.T) {
	m := sample()
	AttachLive(m, liveReport())
	var b bytes.Buffer
	if err := HTML(&b, m); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<td class="mono">1400 keys (70.0%), 273.4 KiB, ttl 0.0%, 1 slot, HOT</td>`,
		`<h2>Live sampling</h2>`,
		`{stats}:&lt;id&gt; piles onto slot 7650`,
		`legacy:*  50    100        &#34;legacy:7&#34;`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	b.Reset()
	if err := HTML(&b, sample()); err != nil || strings.Contains(b.String(), "Live sampling") {
		t.Errorf("a static page has a live section: %v", err)
	}
}
