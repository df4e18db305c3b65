package keysout

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/slotlint/slotlint/analyzer/keymap"
)

// Layout of the HTML graph, in SVG user units. A node's width follows its
// label: a monospace character is about 0.6 of the 12-unit font size.
const (
	nodeHeight  = 26
	charWidth   = 7.3
	nodePadding = 14
	margin      = 24
	gap         = 36 // between components
	maxWidth    = 1100
)

// node is a family placed in the graph: its box's centre and size.
type node struct {
	family *keymap.Family
	x, y   float64
	w, h   float64
}

// edge is a joint use drawn between two placed families (the same one
// for a use of one family's keys across entities).
type edge struct {
	from, to int
	use      *keymap.JointUse
}

// graph is the laid-out map.
type graph struct {
	nodes         []node
	edges         []edge
	width, height float64
}

// layout places the families: each set of families the joint uses connect
// on a circle of its own, larger sets first, packed in rows; families used
// alone follow in rows of their own. The result is the same on every run.
func layout(m *keymap.Map) graph {
	index := map[string]int{}
	for i, f := range m.Families {
		index[f.Name] = i
	}
	// Components over the joint uses' families.
	parent := make([]int, len(m.Families))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	var g graph
	for _, j := range m.Joint {
		for _, e := range edges(j) {
			a, okA := index[e[0]]
			b, okB := index[e[1]]
			if !okA || !okB {
				continue
			}
			g.edges = append(g.edges, edge{from: a, to: b, use: j})
			if ra, rb := find(a), find(b); ra != rb {
				parent[max(ra, rb)] = min(ra, rb)
			}
		}
	}
	comps := map[int][]int{}
	for i := range m.Families {
		comps[find(i)] = append(comps[find(i)], i)
	}
	var order [][]int
	for _, c := range comps {
		order = append(order, c)
	}
	slices.SortFunc(order, func(a, b []int) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return a[0] - b[0]
	})
	g.nodes = make([]node, len(m.Families))
	for i, f := range m.Families {
		g.nodes[i] = node{family: f, w: labelWidth(f.Pattern), h: nodeHeight}
	}
	// Pack the components' boxes in rows.
	x, y, rowH := float64(margin), float64(margin), 0.0
	for _, c := range order {
		w, h := placeComponent(g.nodes, c)
		if x > margin && x+w > maxWidth {
			x, y, rowH = margin, y+rowH+gap, 0
		}
		for _, i := range c {
			g.nodes[i].x += x
			g.nodes[i].y += y
		}
		x += w + gap
		rowH = math.Max(rowH, h)
		g.width = math.Max(g.width, x-gap+margin)
	}
	g.height = y + rowH + margin
	g.width = math.Max(g.width, 2*margin)
	return g
}

// placeComponent places a component's nodes relative to its box's top
// left corner and returns the box's size: one node alone, or the nodes on
// an ellipse wide enough that neighbours do not overlap.
func placeComponent(nodes []node, c []int) (float64, float64) {
	if len(c) == 1 {
		n := &nodes[c[0]]
		n.x, n.y = n.w/2, n.h/2
		return n.w, n.h + 14 // room for a self-loop
	}
	widest := 0.0
	for _, i := range c {
		widest = math.Max(widest, nodes[i].w)
	}
	// Neighbours on the circle are 2r·sin(π/n) apart; keep that above
	// the node height with room, and wide nodes off each other sideways.
	k := float64(len(c))
	ry := math.Max(56, (nodeHeight+18)/(2*math.Sin(math.Pi/k)))
	rx := math.Max(ry, widest*0.9+20)
	if len(c) == 2 {
		ry = 0
		rx = widest/2 + 30
	}
	// Wide labels near the top and bottom of the ellipse can still touch:
	// grow it until no two boxes overlap.
	for range 60 {
		for n, i := range c {
			a := -math.Pi/2 + 2*math.Pi*float64(n)/k
			if len(c) == 2 {
				a = math.Pi * float64(n)
			}
			nodes[i].x = math.Cos(a) * rx
			nodes[i].y = math.Sin(a) * ry
		}
		if !anyOverlap(nodes, c) {
			break
		}
		rx, ry = rx*1.15, ry*1.15
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, i := range c {
		n := nodes[i]
		minX, maxX = math.Min(minX, n.x-n.w/2), math.Max(maxX, n.x+n.w/2)
		minY, maxY = math.Min(minY, n.y-n.h/2), math.Max(maxY, n.y+n.h/2)
	}
	for _, i := range c {
		nodes[i].x -= minX
		nodes[i].y -= minY
	}
	return maxX - minX, maxY - minY + 14
}

func labelWidth(s string) float64 {
	return float64(utf8.RuneCountInString(s))*charWidth + 2*nodePadding
}

// searchText is what the search box matches a family or joint use by.
func searchText(parts ...string) string { return strings.ToLower(strings.Join(parts, " ")) }

// anyOverlap reports whether two of the component's boxes, with a little
// room around each, overlap.
func anyOverlap(nodes []node, c []int) bool {
	for x, i := range c {
		for _, j := range c[x+1:] {
			if overlap(nodes[i], nodes[j], 6) {
				return true
			}
		}
	}
	return false
}

func overlap(a, b node, room float64) bool {
	return math.Abs(a.x-b.x) < (a.w+b.w)/2+room && math.Abs(a.y-b.y) < (a.h+b.h)/2+room
}
