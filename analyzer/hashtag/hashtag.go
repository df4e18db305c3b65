package hashtag

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1101 to SL1105.
var Analyzer = &analysis.Analyzer{
	Name:     "hashtag",
	Doc:      analyzerdoc.MustExtract(doc, "hashtag"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/hashtag",
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

// use is one key expression reaching Redis.
type use struct {
	key  slot.Key
	expr ast.Expr
	a    slot.Analysis
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	ids := rules.Of("hashtag")
	r := report.New(pass, cfg, ids...)
	if len(res.Calls) == 0 && len(res.Txs) == 0 || !r.Enabled(ids...) {
		return nil, nil
	}
	var uses []use
	seen := map[token.Pos]bool{}
	add := func(elems []keyexpr.Elem) {
		for _, el := range elems {
			if el.Expr == nil || seen[el.Expr.Pos()] {
				continue
			}
			seen[el.Expr.Pos()] = true
			uses = append(uses, use{key: el.Key, expr: el.Expr, a: slot.Analyze(el.Key, cfg.Slot)})
		}
	}
	for _, c := range res.Calls {
		add(c.Keys)
	}
	for _, tx := range res.Txs {
		add(tx.Watched)
	}
	// In source order by file name, not by token.Pos: the loader parses a
	// package's files concurrently, so the order of their Pos ranges
	// changes from run to run, and with it the use SL1104 names as first.
	sort.Slice(uses, func(i, j int) bool {
		a, b := pass.Fset.Position(uses[i].expr.Pos()), pass.Fset.Position(uses[j].expr.Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})

	// A value before the tag is most often a configurable prefix
	// (s.prefix + ":{" + id + "}"), which holds no brace in practice:
	// reported only under -strict or -braces, and once per key family.
	prefixed := cfg.Strict || cfg.Slot.HolesMayContainBraces
	prefixReported := map[string]bool{}
	for _, u := range uses {
		a, k := u.a, u.key
		switch {
		case a.Unclosed:
			r.Report(rules.UnclosedTag, u.expr, nil, "key %s opens a hash tag with '{' but never closes it: Redis hashes the whole key", k)
		case a.EmptyTag:
			r.Report(rules.EmptyTag, u.expr, nil, "key %s has an empty hash tag {}: Redis ignores it and hashes the whole key", k)
		}
		if a.IgnoredTag {
			r.Report(rules.IgnoredTag, u.expr, nil, "key %s has a second hash tag that Redis ignores: only the first {...} counts", k)
		} else if a.HoleBeforeTag && (a.Kind == slot.TagLiteral || a.Kind == slot.TagSymbolic) && !braceFreeBeforeTag(k) && !prefixReported[k.Shape()] {
			if h, src, ok := bracedBeforeTag(res.Keys, k); ok {
				prefixReported[k.Shape()] = true
				at := pass.Fset.Position(src.Pos)
				r.Report(rules.IgnoredTag, u.expr, nil, "key %s has %s before its hash tag, which is given %q at %s:%d: its brace moves the tag",
					k, h.Label, src.Text, shortFile(at.Filename), at.Line)
			} else if prefixed {
				prefixReported[k.Shape()] = true
				r.Report(rules.IgnoredTag, u.expr, nil, "key %s has text of unknown value (%s) before its hash tag: a '{' in it would move the tag", k, firstHole(k))
			}
		}
		if a.Kind == slot.TagLiteral && a.HoleOutsideTag {
			lit, _ := a.Tag.Literal()
			r.Report(rules.ConstantTag, u.expr, nil, "key %s has the constant hash tag {%s}: every key of the family is in slot %d (hot shard)", k, lit, slot.Slot(lit))
		}
	}
	families(r, pass, uses)
	return nil, nil
}

func firstHole(k slot.Key) string {
	for _, h := range holesBeforeTag(k) {
		if !keyexpr.BraceFree(h) {
			return h.Label
		}
	}
	return "?"
}

// bracedBeforeTag finds a value before the key's tag that the code
// visibly gives a brace (a prefix field set to "{app}:"): reported by
// default, since the tag then moves for certain.
func bracedBeforeTag(x *keyexpr.Extractor, k slot.Key) (slot.Hole, keyexpr.BraceSource, bool) {
	for _, h := range holesBeforeTag(k) {
		if keyexpr.BraceFree(h) {
			continue
		}
		if _, src, ok := x.BracedHole(h); ok {
			return h, src, true
		}
	}
	return slot.Hole{}, keyexpr.BraceSource{}, false
}

// holesBeforeTag lists the holes before the key's first '{'.
func holesBeforeTag(k slot.Key) []slot.Hole {
	var hs []slot.Hole
	for _, p := range k.Parts() {
		if p.Hole != nil {
			hs = append(hs, *p.Hole)
			continue
		}
		if strings.Contains(p.Lit, "{") {
			break
		}
	}
	return hs
}

// braceFreeBeforeTag: every value before the tag is a number or an
// encoding that cannot hold a brace, so the tag cannot move.
func braceFreeBeforeTag(k slot.Key) bool {
	for _, h := range holesBeforeTag(k) {
		if !keyexpr.BraceFree(h) {
			return false
		}
	}
	return true
}

// tagOf names how a key is tagged, in terms of its shape: "" for no tag.
func tagOf(u use) (string, bool) {
	switch u.a.Kind {
	case slot.TagNone:
		return "", true
	case slot.TagLiteral, slot.TagSymbolic:
		return "{" + u.a.Tag.Shape() + "}", true
	}
	return "", false
}

// families reports SL1104: keys of one shape tagged in different ways. The
// spelling used most (first seen on a tie) is taken as intended.
func families(r *report.Reporter, pass *analysis.Pass, uses []use) {
	byShape := map[string][]use{}
	var shapes []string
	for _, u := range uses {
		shape := u.key.Shape()
		if !meaningful(shape) {
			continue
		}
		if _, ok := byShape[shape]; !ok {
			shapes = append(shapes, shape)
		}
		byShape[shape] = append(byShape[shape], u)
	}
	for _, shape := range shapes {
		group := byShape[shape]
		counts := map[string]int{}
		first := map[string]use{}
		var order []string
		for _, u := range group {
			t, ok := tagOf(u)
			if !ok {
				continue
			}
			if _, ok := first[t]; !ok {
				first[t] = u
				order = append(order, t)
			}
			counts[t]++
		}
		if len(order) < 2 {
			continue
		}
		main := order[0]
		for _, t := range order[1:] {
			if counts[t] > counts[main] {
				main = t
			}
		}
		ref := pass.Fset.Position(first[main].expr.Pos())
		for _, u := range group {
			t, ok := tagOf(u)
			if !ok || t == main {
				continue
			}
			r.Report(rules.MixedTags, u.expr, nil, "key family %q is used %s here and %s at %s:%d: two spellings are two keys in different slots",
				shape, describeTag(t), describeTag(main), shortFile(ref.Filename), ref.Line)
		}
	}
}

func describeTag(t string) string {
	if t == "" {
		return "without a hash tag"
	}
	return fmt.Sprintf("with hash tag %s", t)
}

// meaningful: a shape with fixed text other than separators names a family;
// "*" alone (a key passed in whole) does not.
func meaningful(shape string) bool {
	return strings.Trim(shape, "*:/._-| ") != ""
}

func shortFile(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}
