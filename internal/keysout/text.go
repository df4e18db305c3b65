package keysout

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/slotlint/slotlint/analyzer/keymap"
)

// Text writes the map as tables: the families, the joint uses, the groups
// with their suggested tags, and the families that could leave a constant
// tag.
func Text(w io.Writer, m *keymap.Map) error {
	out := bufio.NewWriter(w)
	fmt.Fprintf(out, "%d key %s in %d %s\n", len(m.Families), plural(len(m.Families), "family", "families"),
		len(m.Packages), plural(len(m.Packages), "package", "packages"))
	if len(m.Families) > 0 {
		fmt.Fprintln(out)
		live := hasLive(m)
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		head := "FAMILY\tTAG\tSLOT\tTYPES\tCOMMANDS\tSITES\tFIRST SITE"
		if live {
			head += "\tLIVE"
		}
		fmt.Fprintln(tw, head)
		for _, f := range m.Families {
			first := ""
			if len(f.FirstSites) > 0 {
				first = f.FirstSites[0].String()
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s", f.Pattern, f.Tag, slotText(f.Slot), dash(strings.Join(f.Types, ",")),
				commands(f), f.Sites, first)
			if live {
				fmt.Fprintf(tw, "\t%s", dash(liveSummary(f.Live)))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if len(m.Joint) > 0 {
		fmt.Fprintf(out, "\n%d joint %s\n\n", len(m.Joint), plural(len(m.Joint), "use", "uses"))
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "VERDICT\tRULES\tKIND\tWHAT\tFAMILIES\tAT")
		for _, j := range m.Joint {
			fams := j.Families
			if j.Unresolved > 0 {
				fams = append(fams[:len(fams):len(fams)], fmt.Sprintf("%d unresolved", j.Unresolved))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", j.Verdict, dash(strings.Join(j.Rules, ",")), j.Kind, what(j), strings.Join(fams, " + "), j.Site)
		}
		tw.Flush()
	}
	if len(m.Groups) > 0 {
		fmt.Fprintf(out, "\nfamilies used together\n\n")
		for _, g := range m.Groups {
			fmt.Fprintf(out, "  %s: %s, %d joint %s", strings.Join(g.Families, " + "), g.Verdict, g.Joint, plural(g.Joint, "use", "uses"))
			if g.Tag != "" {
				fmt.Fprintf(out, ", common tag %s", g.Tag)
			} else {
				fmt.Fprint(out, ", no hole common to every use")
			}
			fmt.Fprintln(out)
			for _, s := range g.Suggested {
				fmt.Fprintf(out, "      %s -> %s\n", s.Family, s.Pattern)
			}
		}
	}
	if len(m.Moves) > 0 {
		fmt.Fprintf(out, "\nconstant tags that could be entity tags\n\n")
		for _, mv := range m.Moves {
			fmt.Fprintf(out, "  %s -> %s (every key in slot %d)", mv.From, mv.To, mv.Slot)
			if mv.Blocked != nil {
				fmt.Fprintf(out, "; %s at %s relies on the constant tag", mv.Blocked.What, mv.Blocked.Site)
			}
			fmt.Fprintln(out)
		}
	}
	if t, ok := m.Live.(TextWriter); ok {
		fmt.Fprintln(out)
		if err := t.WriteText(out); err != nil {
			return err
		}
	}
	return out.Flush()
}

// Summarizer is what a family's live section implements to show in the
// text table's LIVE column and the page's live column: one short line.
type Summarizer interface {
	Summary() string
}

// TextWriter is what the map's live section implements to follow the text
// tables with its own.
type TextWriter interface {
	WriteText(w io.Writer) error
}

func hasLive(m *keymap.Map) bool {
	for _, f := range m.Families {
		if f.Live != nil {
			return true
		}
	}
	return false
}

// liveSummary is a family's live section in one line: its Summary, or its
// JSON.
func liveSummary(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(Summarizer); ok {
		return s.Summary()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func commands(f *keymap.Family) string {
	var parts []string
	for _, c := range f.Commands {
		s := c.Name
		switch c.Access {
		case "read":
			s += "(r)"
		case "write":
			s += "(w)"
		}
		if c.Count > 1 {
			s += "x" + strconv.Itoa(c.Count)
		}
		parts = append(parts, s)
	}
	if f.Derived != "" {
		parts = append(parts, "("+f.Derived+")")
	}
	return dash(strings.Join(parts, " "))
}

func slotText(s *int) string {
	if s == nil {
		return "-"
	}
	return strconv.Itoa(*s)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// what names a joint use, with how a transaction is written in Go.
func what(j *keymap.JointUse) string {
	if j.Method != "" {
		return j.What + " (" + j.Method + ")"
	}
	return j.What
}
