package keysout

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/slotlint/slotlint/analyzer/keymap"
	"github.com/slotlint/slotlint/internal/keyspace"
)

// AttachLive puts what slotlint keys -redis found in the map: each
// family's figures in its Live section (a family no sampled key has gets
// zeros and top slot -1), the run and the keys of no family in the map's.
// Both marshal as the keyspace reports they wrap.
func AttachLive(m *keymap.Map, r *keyspace.Report) {
	byName := map[string]*keyspace.FamilyReport{}
	for i := range r.Families {
		byName[r.Families[i].Family] = &r.Families[i]
	}
	run := &runLive{}
	for _, f := range m.Families {
		live := byName[f.Name]
		if live == nil {
			live = &keyspace.FamilyReport{Family: f.Name, TopSlot: -1, Types: map[string]int{}, Nodes: []keyspace.NodeShare{}}
		}
		f.Live = familyLive{live}
		if live.Hot != nil {
			run.hot = append(run.hot, hotLine{f.Pattern, live.Hot})
		}
	}
	summary := *r
	summary.Families = nil
	run.Report = &summary
	m.Live = run
}

// familyLive is a family's live section.
type familyLive struct {
	*keyspace.FamilyReport
}

// Summary is the family's LIVE column: its estimated keys and their share,
// memory, TTL share, slots, and HOT when it piles up.
func (l familyLive) Summary() string {
	if l.Seen == 0 {
		return "no key sampled"
	}
	s := fmt.Sprintf("%d keys (%s), %s, ttl %s, %d %s", l.Estimated, percent(l.KeyShare), byteSize(l.MemoryBytes),
		percent(l.TTLShare), l.Slots, plural(l.Slots, "slot", "slots"))
	if l.Hot != nil {
		s += ", HOT"
	}
	return s
}

// runLive is the map's live section: the run, and the hot families by
// their patterns for the text.
type runLive struct {
	*keyspace.Report
	hot []hotLine
}

type hotLine struct {
	pattern string
	spot    *keyspace.HotSpot
}

// WriteText follows the map's tables with the run: what was scanned, the
// hot families, the sampled keys no family matches, and why the report is
// partial when it is.
func (l *runLive) WriteText(w io.Writer) error {
	out := bufio.NewWriter(w)
	r := l.Report
	where := "a standalone server"
	switch {
	case r.Cluster && r.Replicas:
		where = fmt.Sprintf("%d %s of a cluster", len(r.Nodes), plural(len(r.Nodes), "replica", "replicas"))
	case r.Cluster:
		where = fmt.Sprintf("%d %s of a cluster", len(r.Nodes), plural(len(r.Nodes), "master", "masters"))
	case r.Replicas:
		where = "a replica"
	}
	fmt.Fprintf(out, "live: %s, %d of %d keys sampled (key budget %d)\n", where, r.Sampled, r.EstimatedKeys, r.BudgetKeys)
	if len(l.hot) > 0 {
		fmt.Fprintf(out, "\nhot families\n\n")
		for _, h := range l.hot {
			fmt.Fprintf(out, "  %s %s\n", h.pattern, h.spot)
		}
	}
	if len(r.Unmatched) > 0 {
		fmt.Fprintf(out, "\nsampled keys of no family in the code\n\n")
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PREFIX\tSEEN\tESTIMATED\tEXAMPLE")
		for _, p := range r.Unmatched {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", p.Prefix, p.Seen, p.Estimated, strconv.Quote(p.Example))
		}
		tw.Flush()
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(out, "\nnote: %s\n", w)
	}
	if r.Partial {
		fmt.Fprintf(out, "\nthe live report is partial:\n")
		for _, reason := range r.PartialReasons {
			fmt.Fprintf(out, "  %s\n", reason)
		}
	}
	return out.Flush()
}

func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// byteSize writes a size with a binary unit.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
