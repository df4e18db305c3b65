package keysout

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/slotlint/slotlint/analyzer/keymap"
)

// page is the HTML page: its style and script are inline and it loads
// nothing, so it opens from a file, offline, as one attachment.
//
//go:embed page.html
var page string

// pageTemplate is parsed on first use: every run of the binary, slotlint
// lua on one script included, would otherwise parse it at start-up.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("keys").Funcs(template.FuncMap{
		"join":    strings.Join,
		"verdict": func(v keymap.Verdict) string { return verdictColors[v] },
		"fill":    func(t keymap.TagKind) string { return tagColors[t] },
		"num":     fmtNum,
		"slot":    slotText,
		"dash":    dash,
		"cmds":    commands,
		"what":    what,
		"live":    liveSummary,
	}).Parse(page))
})

// htmlNode is a placed family with what the page shows of it: the box's
// centre (X, Y), its top left corner (Left, Top) and size.
type htmlNode struct {
	ID                    int
	Family                *keymap.Family
	X, Y, Left, Top, W, H float64
	Search                string
}

// htmlEdge is a joint use drawn between two placed families: D is its
// path, a line, a curve when other uses join the same two families, or a
// loop above a family whose keys of several entities a use combines.
type htmlEdge struct {
	From, To int
	Use      *keymap.JointUse
	D        string
	Title    string
}

type htmlJoint struct {
	*keymap.JointUse
	Search string
}

type htmlPage struct {
	Map           *keymap.Map
	Nodes         []htmlNode
	Edges         []htmlEdge
	Joint         []htmlJoint
	Width, Height float64
	Live          bool
	Verdicts      []keymap.Verdict
	Tags          []keymap.TagKind
	// LiveText is the map's live section as text (the run, hot families,
	// keys of no family), when live sampling ran.
	LiveText string
}

// HTML writes the map as one self-contained page: the families as an SVG
// graph whose edges are the joint uses, coloured by verdict, beside tables
// of the families and joint uses, with a search box and a verdict filter.
func HTML(w io.Writer, m *keymap.Map) error {
	g := layout(m)
	p := htmlPage{Map: m, Width: g.width, Height: g.height,
		Verdicts: []keymap.Verdict{keymap.CrossSlot, keymap.Unknown, keymap.SameSlot},
		Tags:     []keymap.TagKind{keymap.EntityTag, keymap.ConstantTag, keymap.NoTag, keymap.UnknownTag}}
	for i, n := range g.nodes {
		f := n.family
		p.Nodes = append(p.Nodes, htmlNode{ID: i, Family: f, X: n.x, Y: n.y, Left: n.x - n.w/2, Top: n.y - n.h/2, W: n.w, H: n.h,
			Search: searchText(f.Name, f.Pattern, string(f.Tag), strings.Join(f.Types, " "), strings.Join(f.Packages, " "))})
		p.Live = p.Live || f.Live != nil
	}
	parallel := map[[2]int]int{}
	for _, e := range g.edges {
		a, b := g.nodes[e.from], g.nodes[e.to]
		pair := [2]int{min(e.from, e.to), max(e.from, e.to)}
		k := parallel[pair]
		parallel[pair]++
		he := htmlEdge{From: e.from, To: e.to, Use: e.use, D: edgePath(a, b, k),
			Title: fmt.Sprintf("%s %s at %s: %s", e.use.Kind, what(e.use), e.use.Site, e.use.Verdict)}
		if len(e.use.Rules) > 0 {
			he.Title += " (" + strings.Join(e.use.Rules, ", ") + ")"
		}
		p.Edges = append(p.Edges, he)
	}
	for _, j := range m.Joint {
		p.Joint = append(p.Joint, htmlJoint{JointUse: j, Search: searchText(string(j.Kind), j.What, j.Method, string(j.Verdict), strings.Join(j.Rules, " "), strings.Join(j.Families, " "), j.Site.String())})
	}
	if t, ok := m.Live.(TextWriter); ok {
		var b strings.Builder
		if err := t.WriteText(&b); err != nil {
			return err
		}
		p.LiveText = b.String()
	}
	return pageTemplate().Execute(w, p)
}

// fmtNum writes a coordinate to a tenth of a unit.
func fmtNum(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// edgePath is the k-th edge between two nodes: the first a straight line,
// the next ones curves bowing out on alternate sides, so that each stays
// visible; an edge from a node to itself is a loop above it, larger for
// each further one.
func edgePath(a, b node, k int) string {
	if a.family == b.family {
		top, r := a.y-a.h/2, 10+6*float64(k)
		return fmt.Sprintf("M %s %s c %s %s, %s %s, %s 0", fmtNum(a.x-r), fmtNum(top),
			fmtNum(-r/2), fmtNum(-2.4*r), fmtNum(2.5*r), fmtNum(-2.4*r), fmtNum(2*r))
	}
	if k == 0 {
		return fmt.Sprintf("M %s %s L %s %s", fmtNum(a.x), fmtNum(a.y), fmtNum(b.x), fmtNum(b.y))
	}
	// Offset the curve's control point from the midpoint, perpendicular
	// to the line: 1, -1, 2, -2, ... steps of 18 units.
	step := float64((k+1)/2) * 18
	if k%2 == 0 {
		step = -step
	}
	dx, dy := b.x-a.x, b.y-a.y
	l := math.Hypot(dx, dy)
	cx, cy := (a.x+b.x)/2-dy/l*step*2, (a.y+b.y)/2+dx/l*step*2
	return fmt.Sprintf("M %s %s Q %s %s %s %s", fmtNum(a.x), fmtNum(a.y), fmtNum(cx), fmtNum(cy), fmtNum(b.x), fmtNum(b.y))
}
