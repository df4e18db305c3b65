package keyspace

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Report is what a run saw, matched to the code's families.
type Report struct {
	Cluster bool `json:"cluster"`
	// Replicas: the nodes scanned are replicas.
	Replicas bool `json:"replicas"`
	// BudgetKeys is the key budget; Sampled the keys taken into the sample.
	BudgetKeys int `json:"budgetKeys"`
	Sampled    int `json:"sampled"`
	// Vanished counts sampled keys deleted (or expired) before TYPE saw
	// them; they count in Sampled and in no family.
	Vanished int `json:"vanished"`
	// EstimatedKeys is the sum of DBSIZE of the nodes that were sampled.
	EstimatedKeys int64 `json:"estimatedKeys"`
	// EstimatedMemory is the sum of the families' and prefixes' memory
	// estimates, in bytes.
	EstimatedMemory int64 `json:"estimatedMemoryBytes"`
	// HotShare is the threshold of Family.Hot.
	HotShare  float64        `json:"hotShareThreshold"`
	Nodes     []NodeReport   `json:"nodes"`
	Families  []FamilyReport `json:"families,omitempty"`
	Unmatched []PrefixReport `json:"unmatched"`
	Errors    []NodeError    `json:"errors"`
	// Partial: some node failed, or the time budget or an interrupt ended
	// the scan; PartialReasons say which.
	Partial        bool     `json:"partial"`
	PartialReasons []string `json:"partialReasons"`
	// Warnings are caveats about the estimates.
	Warnings []string `json:"warnings"`
}

// NodeReport is one scanned node.
type NodeReport struct {
	Addr string `json:"addr"`
	// Master is the shard's master when Addr is a replica.
	Master  string      `json:"master,omitempty"`
	Slots   []SlotRange `json:"slots,omitempty"`
	Version string      `json:"version"`
	DBSize  int64       `json:"dbSize"`
	Budget  int         `json:"budget"`
	Sampled int         `json:"sampled"`
	// Complete: the scan went round the whole keyspace of the node within
	// its budget, so its counts are exact rather than estimated.
	Complete bool `json:"complete"`
}

// NodeError is a node, or a shard, that could not be scanned (in full).
type NodeError struct {
	Addr  string      `json:"addr"`
	Slots []SlotRange `json:"slots,omitempty"`
	Err   error       `json:"-"`
}

func (e NodeError) Error() string {
	if e.Slots == nil {
		return fmt.Sprintf("%s: %v", e.Addr, e.Err)
	}
	return fmt.Sprintf("%s (slots %s): %v", e.Addr, formatRanges(e.Slots), e.Err)
}

func (e NodeError) Unwrap() error { return e.Err }

// MarshalJSON writes the error's text beside the address and slots.
func (e NodeError) MarshalJSON() ([]byte, error) {
	return marshalNodeError(e)
}

// FamilyReport is the live side of one family.
type FamilyReport struct {
	Family string `json:"family"`
	// Seen counts the family's sampled keys; Estimated scales each node's
	// count by its DBSIZE over its sampled keys (exact on a complete scan).
	Seen      int   `json:"seen"`
	Estimated int64 `json:"estimated"`
	// KeyShare and MemoryShare are the family's shares of the estimated
	// keys and memory of the sampled nodes.
	KeyShare float64 `json:"keyShare"`
	// MemoryBytes is the mean MEMORY USAGE of MemorySampled keys times
	// Estimated.
	MemoryBytes   int64   `json:"memoryBytes"`
	MemorySampled int     `json:"memorySampled"`
	MemoryShare   float64 `json:"memoryShare"`
	// TTLShare is the share of sampled keys with a time to live.
	TTLShare float64 `json:"ttlShare"`
	// Types counts the sampled keys by Redis type.
	Types map[string]int `json:"types"`
	// Slots is the number of distinct slots among the sampled keys;
	// TopSlot the slot holding most of them, TopSlotShare their share.
	Slots        int     `json:"slots"`
	TopSlot      int     `json:"topSlot"`
	TopSlotShare float64 `json:"topSlotShare"`
	// Nodes spreads the sampled keys over the scanned nodes.
	Nodes []NodeShare `json:"nodes"`
	// Hot is set when the family's keys lie in one slot or on one shard and
	// it holds at least the hot share of the keys or the memory.
	Hot *HotSpot `json:"hot,omitempty"`
}

// NodeShare is a family's keys on one scanned node.
type NodeShare struct {
	Addr      string `json:"addr"`
	Seen      int    `json:"seen"`
	Estimated int64  `json:"estimated"`
}

// HotSpot says where a family piles up and how much of the keyspace it is.
type HotSpot struct {
	// Scope is "slot" (Slot holds at least 90% of its sampled keys) or
	// "shard" (the node Addr does, over several slots).
	Scope       string  `json:"scope"`
	Slot        int     `json:"slot"`
	Addr        string  `json:"addr"`
	KeyShare    float64 `json:"keyShare"`
	MemoryShare float64 `json:"memoryShare"`
	Threshold   float64 `json:"threshold"`
}

func (h *HotSpot) String() string {
	where := fmt.Sprintf("slot %d on %s", h.Slot, h.Addr)
	if h.Scope == "shard" {
		where = "the shard of " + h.Addr
	}
	return fmt.Sprintf("piles onto %s: %.1f%% of the keys, %.1f%% of the memory (threshold %.0f%%)",
		where, 100*h.KeyShare, 100*h.MemoryShare, 100*h.Threshold)
}

// PrefixReport is a group of sampled keys that match no family.
type PrefixReport struct {
	Prefix    string `json:"prefix"`
	Seen      int    `json:"seen"`
	Estimated int64  `json:"estimated"`
	Example   string `json:"example"`
}

// groupTotals merges one group's accumulators over the nodes.
type groupTotals struct {
	seen, ttl, memN int
	est             float64
	memSum          int64
	slots           map[int]int
	types           map[string]int
	perNode         []NodeShare
	example         string
}

func (s *sampler) report(topo *topology) *Report {
	r := &Report{Cluster: topo.cluster, Replicas: s.opts.Replicas, BudgetKeys: s.opts.BudgetKeys,
		HotShare: s.opts.HotShare, Errors: slices.Clone(topo.errs)}
	totals := map[groupKey]*groupTotals{}
	for _, n := range s.nodes {
		nr := NodeReport{Addr: n.addr, Master: n.master, Slots: n.slots, Version: n.version,
			DBSize: n.dbsize, Budget: n.budget, Sampled: n.sampled, Complete: n.complete}
		r.Nodes = append(r.Nodes, nr)
		r.Sampled += n.sampled
		r.Vanished += n.vanished
		if n.err != nil {
			r.Errors = append(r.Errors, NodeError{Addr: n.addr, Slots: n.slots, Err: n.err})
		}
		if n.sampled == 0 {
			if n.dbsize > 0 && n.err == nil && n.budget > 0 {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s: no key sampled of its %d", n.addr, n.dbsize))
			}
			continue
		}
		r.EstimatedKeys += n.dbsize
		scale := 1.0
		if !n.complete {
			scale = float64(n.dbsize) / float64(n.sampled)
			if n.slotOrdered {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s scans slot by slot (Redis %s): its sample holds its lowest slots only; a key budget of its DBSIZE (%d) or more gives exact counts", n.addr, n.version, n.dbsize))
			}
		}
		for g, a := range n.groups {
			t := totals[g]
			if t == nil {
				t = &groupTotals{slots: map[int]int{}, types: map[string]int{}, example: a.example}
				totals[g] = t
			}
			t.seen += a.seen
			t.ttl += a.ttl
			t.memN += a.memN
			t.memSum += a.memSum
			est := float64(a.seen) * scale
			t.est += est
			for sl, c := range a.slots {
				t.slots[sl] += c
			}
			for ty, c := range a.types {
				t.types[ty] += c
			}
			t.perNode = append(t.perNode, NodeShare{Addr: n.addr, Seen: a.seen, Estimated: int64(math.Round(est))})
			t.example = min(t.example, a.example)
		}
	}
	for _, e := range r.Errors {
		r.Partial = true
		r.PartialReasons = append(r.PartialReasons, e.Error())
	}
	for _, n := range s.nodes {
		if n.unanswered {
			r.Partial = true
			e := NodeError{Addr: n.addr, Slots: n.slots, Err: errors.New("no answer before the run ended")}
			r.PartialReasons = append(r.PartialReasons, e.Error())
		}
	}
	s.fill(r, totals)
	// Empty lists rather than none, so the JSON form has every field.
	for _, l := range []*[]string{&r.PartialReasons, &r.Warnings} {
		if *l == nil {
			*l = []string{}
		}
	}
	if r.Nodes == nil {
		r.Nodes = []NodeReport{}
	}
	if r.Unmatched == nil {
		r.Unmatched = []PrefixReport{}
	}
	if r.Errors == nil {
		r.Errors = []NodeError{}
	}
	return r
}

// fill turns the merged groups into family and prefix reports, then flags
// the hot families against the whole sampled keyspace.
func (s *sampler) fill(r *Report, totals map[groupKey]*groupTotals) {
	mem := map[groupKey]int64{}
	for g, t := range totals {
		if t.memN > 0 {
			mem[g] = int64(math.Round(float64(t.memSum) / float64(t.memN) * t.est))
			r.EstimatedMemory += mem[g]
		}
	}
	share := func(part, whole float64) float64 {
		if whole <= 0 {
			return 0
		}
		return part / whole
	}
	for _, g := range slices.SortedFunc(maps.Keys(totals), func(a, b groupKey) int { return strings.Compare(a.name, b.name) }) {
		t := totals[g]
		if !g.matched {
			r.Unmatched = append(r.Unmatched, PrefixReport{Prefix: g.name, Seen: t.seen, Estimated: int64(math.Round(t.est)), Example: t.example})
			continue
		}
		f := FamilyReport{
			Family: g.name, Seen: t.seen, Estimated: int64(math.Round(t.est)),
			KeyShare:    share(t.est, float64(r.EstimatedKeys)),
			MemoryBytes: mem[g], MemorySampled: t.memN,
			MemoryShare: share(float64(mem[g]), float64(r.EstimatedMemory)),
			TTLShare:    share(float64(t.ttl), float64(t.seen)),
			Types:       t.types, Slots: len(t.slots), Nodes: t.perNode,
		}
		slices.SortFunc(f.Nodes, func(a, b NodeShare) int { return strings.Compare(a.Addr, b.Addr) })
		for sl, c := range t.slots {
			if c > t.slots[f.TopSlot] || c == t.slots[f.TopSlot] && sl < f.TopSlot {
				f.TopSlot = sl
			}
		}
		f.TopSlotShare = share(float64(t.slots[f.TopSlot]), float64(t.seen))
		f.Hot = s.hot(r, &f)
		r.Families = append(r.Families, f)
	}
	slices.SortStableFunc(r.Families, func(a, b FamilyReport) int { return cmp.Compare(b.Estimated, a.Estimated) })
	slices.SortStableFunc(r.Unmatched, func(a, b PrefixReport) int { return cmp.Compare(b.Estimated, a.Estimated) })
}

// hot flags a family whose sampled keys lie in one slot, or on one node of
// several, when it holds at least the hot share of the keys or memory: one
// shard then carries that share of the load, and no resharding can split
// it.
func (s *sampler) hot(r *Report, f *FamilyReport) *HotSpot {
	if f.Seen < 2 || f.KeyShare < s.opts.HotShare && f.MemoryShare < s.opts.HotShare {
		return nil
	}
	h := &HotSpot{KeyShare: f.KeyShare, MemoryShare: f.MemoryShare, Threshold: s.opts.HotShare}
	if f.TopSlotShare >= concentrated {
		h.Scope, h.Slot, h.Addr = "slot", f.TopSlot, s.nodeOf(f.TopSlot)
		return h
	}
	if len(r.Nodes) < 2 {
		return nil
	}
	for _, m := range f.Nodes {
		if float64(m.Seen) >= concentrated*float64(f.Seen) {
			h.Scope, h.Slot, h.Addr = "shard", -1, m.Addr
			return h
		}
	}
	return nil
}

// nodeOf names the scanned node serving a slot (the only node of a
// standalone server).
func (s *sampler) nodeOf(sl int) string {
	for _, n := range s.nodes {
		if n.slots == nil {
			return n.addr
		}
		for _, r := range n.slots {
			if sl >= r.Start && sl <= r.End {
				return n.addr
			}
		}
	}
	return ""
}

func marshalNodeError(e NodeError) ([]byte, error) {
	msg := ""
	if e.Err != nil {
		msg = e.Err.Error()
	}
	return json.Marshal(struct {
		Addr  string      `json:"addr"`
		Slots []SlotRange `json:"slots,omitempty"`
		Error string      `json:"error"`
	}{e.Addr, e.Slots, msg})
}
