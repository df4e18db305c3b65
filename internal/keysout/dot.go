package keysout

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/analyzer/keymap"
)

// verdictColors are the edge colours of each verdict, shared by the
// Graphviz and HTML graphs.
var verdictColors = map[keymap.Verdict]string{
	keymap.SameSlot:  "#2e7d32",
	keymap.CrossSlot: "#c62828",
	keymap.Unknown:   "#9e9e9e",
}

// tagColors fill the family nodes by tag kind.
var tagColors = map[keymap.TagKind]string{
	keymap.EntityTag:   "#e3f2fd",
	keymap.ConstantTag: "#fff3e0",
	keymap.NoTag:       "#f5f5f5",
	keymap.UnknownTag:  "#ede7f6",
}

// Dot writes the map as a Graphviz graph: a node per family, labelled with
// its pattern and tag, and an edge per pair of families a joint use
// combines, coloured by the use's verdict and labelled with its command
// and rules.
func Dot(w io.Writer, m *keymap.Map) error {
	out := bufio.NewWriter(w)
	fmt.Fprintln(out, "graph keys {")
	fmt.Fprintln(out, "  graph [rankdir=LR];")
	fmt.Fprintln(out, `  node [shape=box, style="rounded,filled", fontname="monospace"];`)
	for i, f := range m.Families {
		fmt.Fprintf(out, "  f%d [label=%s, fillcolor=%s, tooltip=%s];\n", i, quote(f.Pattern+"\n"+string(f.Tag)+" tag"),
			quote(tagColors[f.Tag]), quote(f.Name))
	}
	index := map[string]int{}
	for i, f := range m.Families {
		index[f.Name] = i
	}
	for _, j := range m.Joint {
		label := j.What
		if len(j.Rules) > 0 {
			label += " " + strings.Join(j.Rules, ",")
		}
		for _, e := range edges(j) {
			fmt.Fprintf(out, "  f%d -- f%d [color=%s, label=%s, tooltip=%s];\n", index[e[0]], index[e[1]],
				quote(verdictColors[j.Verdict]), quote(label), quote(string(j.Verdict)+" at "+j.Site.String()))
		}
	}
	fmt.Fprintln(out, "}")
	return out.Flush()
}

// edges are the pairs of families a joint use combines: each family with
// the first, or a loop on the one family a use of many entities' keys
// combines with itself.
func edges(j *keymap.JointUse) [][2]string {
	switch len(j.Families) {
	case 0:
		return nil // only keys built elsewhere: nothing to draw
	case 1:
		return [][2]string{{j.Families[0], j.Families[0]}}
	}
	var out [][2]string
	for _, f := range j.Families[1:] {
		out = append(out, [2]string{j.Families[0], f})
	}
	return out
}

// quote writes a Graphviz string; Go's quoting escapes what DOT needs.
func quote(s string) string { return strconv.Quote(s) }
