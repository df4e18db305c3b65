package keymap

import (
	"cmp"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/rediscmd"
)

// firstSites is how many call sites a family lists.
const firstSites = 5

// jointRules are the rules that report joint uses, with the kinds of use
// each reports on.
var jointRules = map[string][]JointKind{
	rules.SlotsDiffer:    {JointCommand, JointCompanion},
	rules.NoCommonTag:    {JointCommand, JointCompanion},
	rules.UnresolvedKeys: {JointCommand},
	rules.TxSlots:        {JointTransaction, JointWatch},
	rules.ScriptKeySlots: {JointScript},
}

// IsJointRule reports whether the rule with this ID reports joint uses, so
// that each of its findings is on a joint use of the map.
func IsJointRule(id string) bool { _, ok := jointRules[id]; return ok }

// FromGraph builds the map from a checker run that included Analyzer: the
// results of its root actions, merged, with each joint use given the IDs
// of the rules whose findings in the same run are on it. A package whose
// analysis failed adds nothing.
func FromGraph(graph *checker.Graph) *Map {
	diags := map[*packages.Package][]analysis.Diagnostic{}
	var results []*Result
	for _, act := range graph.Roots {
		if act.Err != nil {
			continue
		}
		if act.Analyzer == Analyzer {
			if r, ok := act.Result.(*Result); ok {
				results = append(results, r)
			}
			continue
		}
		diags[act.Package] = append(diags[act.Package], act.Diagnostics...)
	}
	for _, act := range graph.Roots {
		if act.Err == nil && act.Analyzer == Analyzer {
			if r, ok := act.Result.(*Result); ok {
				attach(r, act.Package.Fset, diags[act.Package])
			}
		}
	}
	return Merge(results)
}

// attach gives each finding of a joint-use rule to one joint use: the
// innermost use of a kind the rule reports on that holds the finding's
// position. When several share that range (a runtime call that is both a
// multi-key command and a lock with its wake-up list), the finding goes,
// in this order of preference, to a use not judged same-slot, to the use
// whose own judgement is the finding (the same keys related the same
// way), to a use at the finding's position, to a use that has no finding
// of the rule there yet, and otherwise to the first in source order: a
// finding is credited once.
func attach(r *Result, fset *token.FileSet, diags []analysis.Diagnostic) {
	type candidates struct {
		d    analysis.Diagnostic
		uses []*JointUse
	}
	var later []candidates
	for _, d := range diags {
		kinds, ok := jointRules[d.Category]
		if !ok {
			continue
		}
		var best []*JointUse
		var size int = -1
		for _, j := range r.Joint {
			if !slices.Contains(kinds, j.Kind) {
				continue
			}
			s, ok := j.inner(d)
			if !ok {
				continue
			}
			switch {
			case size < 0 || s < size:
				best, size = []*JointUse{j}, s
			case s == size:
				best = append(best, j)
			}
		}
		best = preferred(best, func(j *JointUse) bool { return j.Verdict != SameSlot })
		best = preferred(best, func(j *JointUse) bool { return j.Reason == d.Message })
		if len(best) > 1 {
			// Decided once the findings that are some use's own
			// judgement are placed.
			later = append(later, candidates{d, best})
			continue
		}
		if len(best) == 1 {
			credit(best[0], fset, d, r.Package)
		}
	}
	for _, c := range later {
		p := fset.Position(c.d.Pos)
		best := preferred(c.uses, func(j *JointUse) bool {
			return j.Site.File == p.Filename && j.Site.Line == p.Line && j.Site.Col == p.Column
		})
		best = preferred(best, func(j *JointUse) bool {
			return !slices.ContainsFunc(j.Findings, func(f Finding) bool {
				return f.Rule == c.d.Category && f.Site.File == p.Filename && f.Site.Line == p.Line && f.Site.Col == p.Column
			})
		})
		credit(best[0], fset, c.d, r.Package)
	}
}

// preferred keeps the uses that satisfy ok, or all of them when none does.
func preferred(uses []*JointUse, ok func(*JointUse) bool) []*JointUse {
	var kept []*JointUse
	for _, j := range uses {
		if ok(j) {
			kept = append(kept, j)
		}
	}
	if len(kept) == 0 {
		return uses
	}
	return kept
}

// credit records finding d on joint use j.
func credit(j *JointUse, fset *token.FileSet, d analysis.Diagnostic, pkg string) {
	p := fset.Position(d.Pos)
	j.Findings = append(j.Findings, Finding{Rule: d.Category, Site: Site{File: p.Filename, Line: p.Line, Col: p.Column, Package: pkg}, Message: d.Message})
	if !slices.Contains(j.Rules, d.Category) {
		j.Rules = append(j.Rules, d.Category)
		slices.Sort(j.Rules)
	}
	// A rule reporting the keys as not sharing a slot decides the
	// verdict; SL1005 says only that they are unresolved.
	if d.Category != rules.UnresolvedKeys {
		j.Verdict = CrossSlot
		if j.Reason == "" {
			j.Reason = d.Message
		}
	}
}

// inner returns the size of the smallest range of the use that holds the
// diagnostic's position.
func (j *JointUse) inner(d analysis.Diagnostic) (int, bool) {
	size, ok := 0, false
	for _, s := range j.within {
		if s.contains(d.Pos) && (!ok || int(s.size()) < size) {
			size, ok = int(s.size()), true
		}
	}
	return size, ok
}

// Merge builds the map from packages' results: a family used in several
// packages (or in a package and its test variant) is one family.
func Merge(results []*Result) *Map {
	m := &Map{Version: SchemaVersion, Families: []*Family{}, Joint: []*JointUse{}, Groups: []*Group{}, Moves: []*Move{}}
	pkgs := map[string]bool{}
	type acc struct {
		f     *Family
		first Site
		uses  map[use]bool
	}
	fams := map[string]*acc{}
	joint := map[string]*JointUse{}
	for _, r := range results {
		pkgs[r.Package] = true
		for name, f := range r.Families {
			a := fams[name]
			first := firstUse(r.uses[name])
			if a == nil {
				a = &acc{uses: map[use]bool{}}
				fams[name] = a
			}
			if a.f == nil || before(first, a.first) {
				copied := *f
				a.f, a.first = &copied, first
			}
			for _, u := range r.uses[name] {
				a.uses[u] = true
			}
		}
		for _, j := range r.Joint {
			id := string(j.Kind) + " " + j.What + " " + j.Site.String()
			old, ok := joint[id]
			if !ok {
				copied := *j
				copied.Rules, copied.Findings = nil, nil
				old = &copied
				joint[id] = old
			}
			for _, f := range j.Findings {
				if !slices.Contains(old.Findings, f) {
					old.Findings = append(old.Findings, f)
				}
				if !slices.Contains(old.Rules, f.Rule) {
					old.Rules = append(old.Rules, f.Rule)
				}
			}
			slices.Sort(old.Rules)
			slices.SortFunc(old.Findings, func(a, b Finding) int {
				return cmp.Or(compareSites(a.Site, b.Site), strings.Compare(a.Rule, b.Rule))
			})
			if worse(old.Verdict, j.Verdict) != old.Verdict {
				old.Verdict, old.Reason = j.Verdict, j.Reason
			}
		}
	}
	for p := range pkgs {
		m.Packages = append(m.Packages, p)
	}
	slices.Sort(m.Packages)
	for _, a := range fams {
		m.Families = append(m.Families, a.f.finish(a.uses))
	}
	slices.SortFunc(m.Families, func(a, b *Family) int { return strings.Compare(a.Name, b.Name) })
	for _, j := range joint {
		m.Joint = append(m.Joint, j)
	}
	slices.SortFunc(m.Joint, func(a, b *JointUse) int {
		return cmp.Or(compareSites(a.Site, b.Site), strings.Compare(string(a.Kind), string(b.Kind)), strings.Compare(a.What, b.What))
	})
	m.Groups = groups(m)
	m.Moves = moves(m)
	return m
}

func firstUse(us []use) Site {
	var first Site
	for i, u := range us {
		if i == 0 || before(u.site, first) {
			first = u.site
		}
	}
	return first
}

func before(a, b Site) bool { return compareSites(a, b) < 0 }

func compareSites(a, b Site) int {
	return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
}

// finish fills the family's commands, types, sites and packages from its
// uses.
func (f *Family) finish(uses map[use]bool) *Family {
	f.Pattern, f.Parts = pattern(f.Key), partsOf(f.Key)
	counts := map[string]int{}
	types := map[string]bool{}
	sites := map[Site]bool{}
	pkgs := map[string]bool{}
	for u := range uses {
		sites[u.site] = true
		pkgs[u.site.Package] = true
		if u.cmd == "" {
			continue
		}
		f.Derived = "" // the code sends commands on it itself
		counts[u.cmd]++
		if t := dataType(u.cmd); t != "" {
			types[t] = true
		}
	}
	f.Commands = []CommandUse{}
	for name, n := range counts {
		f.Commands = append(f.Commands, CommandUse{Name: name, Access: access(name), Count: n})
	}
	slices.SortFunc(f.Commands, func(a, b CommandUse) int { return strings.Compare(a.Name, b.Name) })
	f.Types = []string{}
	for t := range types {
		f.Types = append(f.Types, t)
	}
	slices.Sort(f.Types)
	all := make([]Site, 0, len(sites))
	for s := range sites {
		all = append(all, s)
	}
	slices.SortFunc(all, compareSites)
	f.Sites = len(all)
	f.FirstSites = all[:min(len(all), firstSites)]
	f.Packages = []string{}
	for p := range pkgs {
		f.Packages = append(f.Packages, p)
	}
	slices.Sort(f.Packages)
	return f
}

// lookup finds a command in Redis's table: "BITOP AND" is BITOP.
func lookup(cmd string) (*rediscmd.Command, bool) {
	name, _, _ := strings.Cut(cmd, " ")
	return rediscmd.Lookup(name)
}

func access(cmd string) string {
	c, ok := lookup(cmd)
	switch {
	case !ok:
		return ""
	case c.Has(rediscmd.FlagWrite):
		return "write"
	case c.Has(rediscmd.FlagReadonly):
		return "read"
	}
	return ""
}

// dataTypes are the ACL categories that name a data type.
var dataTypes = []struct {
	acl  rediscmd.ACL
	name string
}{
	{rediscmd.ACLString, "string"}, {rediscmd.ACLHash, "hash"}, {rediscmd.ACLList, "list"},
	{rediscmd.ACLSet, "set"}, {rediscmd.ACLSortedSet, "zset"}, {rediscmd.ACLStream, "stream"},
	{rediscmd.ACLBitmap, "bitmap"}, {rediscmd.ACLHyperLogLog, "hyperloglog"}, {rediscmd.ACLGeo, "geo"},
}

func dataType(cmd string) string {
	c, ok := lookup(cmd)
	if !ok {
		return ""
	}
	for _, t := range dataTypes {
		if c.InACL(t.acl) {
			return t.name
		}
	}
	return ""
}

// worse orders verdicts: cross-slot, then unknown, then same-slot.
func worse(a, b Verdict) Verdict {
	rank := map[Verdict]int{SameSlot: 0, Unknown: 1, CrossSlot: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// groups joins the families that joint uses combine, and proposes for each
// group the tag its joint uses have in common.
func groups(m *Map) []*Group {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if p, ok := parent[x]; ok && p != x {
			r := find(p)
			parent[x] = r
			return r
		}
		parent[x] = x
		return x
	}
	for _, j := range m.Joint {
		for i := 1; i < len(j.Families); i++ {
			a, b := find(j.Families[0]), find(j.Families[i])
			if a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	byRoot := map[string]*Group{}
	uses := map[string][]*JointUse{}
	for _, j := range m.Joint {
		if len(j.Families) < 2 {
			continue
		}
		root := find(j.Families[0])
		g := byRoot[root]
		if g == nil {
			g = &Group{Verdict: SameSlot}
			byRoot[root] = g
		}
		g.Joint++
		g.Verdict = worse(g.Verdict, j.Verdict)
		uses[root] = append(uses[root], j)
	}
	var out []*Group
	for root, g := range byRoot {
		for name := range parent {
			if find(name) == root {
				g.Families = append(g.Families, name)
			}
		}
		slices.Sort(g.Families)
		suggest(m, g, uses[root])
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *Group) int { return strings.Compare(a.Families[0], b.Families[0]) })
	return out
}

// suggest sets the group's tag when every joint use of it has a hole all
// its keys share, and each family's pattern with that hole as the tag.
func suggest(m *Map, g *Group, uses []*JointUse) {
	idx := map[string]int{}
	for _, j := range uses {
		if j.commonLabel == "" {
			fixedTag(m, g)
			return
		}
		if g.Tag == "" {
			g.Tag = "{<" + j.commonLabel + ">}"
		}
		for name, i := range j.common {
			if _, ok := idx[name]; !ok {
				idx[name] = i
			}
		}
	}
	for _, name := range g.Families {
		f, ok := m.Family(name)
		i, ok2 := idx[name]
		if !ok || !ok2 {
			continue
		}
		if p := withTagOn(f.Key, i); p != f.Pattern {
			g.Suggested = append(g.Suggested, Suggestion{Family: name, Pattern: p})
		}
	}
}

// moves lists the families with a constant tag and holes: every key of
// such a family is in one slot, on one shard, however many entities there
// are. The entity hole is the one the family's group would share, else
// its first hole.
func moves(m *Map) []*Move {
	hole := map[string]int{}
	for _, j := range m.Joint {
		for name, i := range j.common {
			if _, ok := hole[name]; !ok {
				hole[name] = i
			}
		}
	}
	var out []*Move
	for _, f := range m.Families {
		if f.Tag != ConstantTag || !f.Key.HasHoles() || f.Slot == nil {
			continue
		}
		mv := &Move{Family: f.Name, From: f.Pattern, To: withTagOn(f.Key, hole[f.Name]), Slot: *f.Slot}
		for _, j := range m.Joint {
			if j.Verdict != SameSlot || !slices.Contains(j.Families, f.Name) {
				continue
			}
			if _, shared := j.common[f.Name]; !shared {
				mv.Blocked = &Blocker{What: j.What, Site: j.Site}
				break
			}
		}
		out = append(out, mv)
	}
	return out
}

// RelativeTo writes the map's file names relative to dir where they are
// below it, so the map reads the same from any checkout.
func (m *Map) RelativeTo(dir string) {
	rel := func(s *Site) {
		if r, err := filepath.Rel(dir, s.File); err == nil && !strings.HasPrefix(r, "..") {
			s.File = filepath.ToSlash(r)
		}
	}
	for _, f := range m.Families {
		for i := range f.FirstSites {
			rel(&f.FirstSites[i])
		}
	}
	for _, j := range m.Joint {
		rel(&j.Site)
		for i := range j.Findings {
			rel(&j.Findings[i].Site)
		}
	}
	for _, mv := range m.Moves {
		if mv.Blocked != nil {
			rel(&mv.Blocked.Site)
		}
	}
}

// fixedTag proposes, for a group of keys with no holes (counters, leader
// keys used together), the tag of their common prefix: "count:a" and
// "count:b" become "{count}:a" and "{count}:b", one slot for both. Keys
// with nothing in common before a ':' get no proposal.
func fixedTag(m *Map, g *Group) {
	var texts []string
	for _, name := range g.Families {
		f, ok := m.Family(name)
		if !ok || f.Key.HasHoles() {
			return
		}
		texts = append(texts, strings.NewReplacer("{", "", "}", "").Replace(name))
	}
	prefix := texts[0]
	for _, t := range texts[1:] {
		n := 0
		for n < len(prefix) && n < len(t) && prefix[n] == t[n] {
			n++
		}
		prefix = prefix[:n]
	}
	end := strings.LastIndexByte(prefix, ':')
	if end <= 0 {
		return
	}
	tag := prefix[:end]
	g.Tag = "{" + tag + "}"
	for i, name := range g.Families {
		if p := g.Tag + texts[i][end:]; p != name {
			g.Suggested = append(g.Suggested, Suggestion{Family: name, Pattern: p})
		}
	}
}
