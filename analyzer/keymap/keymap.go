package keymap

import (
	_ "embed"
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/internal/slotcheck"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer collects one package's key families and joint uses.
var Analyzer = &analysis.Analyzer{
	Name:       "slotlintkeymap",
	Doc:        analyzerdoc.MustExtract(doc, "slotlintkeymap"),
	Run:        run,
	Requires:   []*analysis.Analyzer{config.Analyzer, redisapi.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

// Result is one package's part of the map: its families, with the uses
// seen in the package, and its joint uses. FromGraph merges the packages'
// results into a Map.
type Result struct {
	Package string
	// Families are the families used in the package, by name.
	Families map[string]*Family
	// Joint are the package's joint uses, in source order.
	Joint []*JointUse
	// uses are, per family, the commands sent on it and where.
	uses map[string][]use
}

// use is one key of a family sent with a command at a site.
type use struct {
	site Site
	cmd  string
}

// span is a source range of one file.
type span struct{ from, to token.Pos }

func (s span) contains(p token.Pos) bool { return s.from <= p && p < s.to }

func (s span) size() token.Pos { return s.to - s.from }

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	res := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	c := &collector{
		pass: pass, x: res.Keys, opts: cfg.Slot,
		out: &Result{Package: pass.Pkg.Path(), Families: map[string]*Family{}, uses: map[string][]use{}},
	}
	seen := map[*redisapi.Call]bool{}
	for _, call := range res.Calls {
		seen[call] = true
		c.call(call)
	}
	for _, tx := range res.Txs {
		for _, k := range tx.Watched {
			c.key(k, "WATCH", tx.Node)
		}
		for _, call := range tx.Calls {
			if !seen[call] {
				// A command a helper queues for the transaction: its keys
				// as the caller's arguments make them.
				seen[call] = true
				for _, k := range call.Keys {
					c.key(k, call.Command, call.Node)
				}
			}
		}
		c.tx(tx)
	}
	return c.out, nil
}

type collector struct {
	pass *analysis.Pass
	x    *keyexpr.Extractor
	opts slot.Options
	out  *Result
}

func (c *collector) site(n ast.Node) Site {
	p := c.pass.Fset.Position(n.Pos())
	return Site{File: p.Filename, Line: p.Line, Col: p.Column, Package: c.out.Package}
}

// family records the family of k, if k names one, and returns its name.
func (c *collector) family(k slot.Key) (string, bool) {
	if !isFamilyKey(k) {
		return "", false
	}
	name := familyName(k)
	f := c.out.Families[name]
	if f == nil {
		f = &Family{Name: name, Key: k}
		f.Tag, f.TagText = tagOf(k, c.opts)
		if s, ok := slot.SlotOf(k, c.opts); ok {
			f.Slot = &s
		}
		c.out.Families[name] = f
	}
	return name, true
}

// key records one key sent with cmd.
func (c *collector) key(e keyexpr.Elem, cmd string, call ast.Node) {
	at := call
	if e.Expr != nil {
		at = e.Expr
	}
	if name, ok := c.family(e.Key); ok {
		c.out.uses[name] = append(c.out.uses[name], use{site: c.site(at), cmd: cmd})
	}
}

// call records a command's keys and, for a multi-key command or a script
// call, the joint use, judged as crossslot and scriptkeys judge it.
func (c *collector) call(call *redisapi.Call) {
	for _, k := range call.Keys {
		c.key(k, call.Command, call.Node)
	}
	for _, comp := range call.Companions {
		c.companion(call, comp)
	}
	if !call.MultiKey {
		return
	}
	keys := slotcheck.Expand(c.x, call.Keys)
	if len(keys) < 2 && (call.Complete || call.Script) {
		return
	}
	j := &JointUse{Kind: JointCommand, What: call.Command, Site: c.site(call.Node), Split: call.SplitBySlot && redisapi.MultiShard[call.Command]}
	if call.Script {
		j.Kind = JointScript
	}
	j.within = []span{{call.Node.Pos(), call.Node.End()}}
	c.judge(j, call.Command, keys, call.Complete)
	c.out.Joint = append(c.out.Joint, j)
}

// companion records the key a library derives from one the code passes
// (the runtime's wake-up list) and the joint use of the two.
func (c *collector) companion(call *redisapi.Call, comp redisapi.Companion) {
	name, ok := c.family(comp.Key)
	if !ok {
		return
	}
	// Derived stays only when no code sends a command on the family.
	c.out.Families[name].Derived = comp.What
	c.out.uses[name] = append(c.out.uses[name], use{site: c.site(call.Node)})
	j := &JointUse{Kind: JointCompanion, What: call.Command + " " + comp.What, Site: c.site(call.Node)}
	j.within = []span{{call.Node.Pos(), call.Node.End()}}
	keys := []slotcheck.Key{{Elem: comp.Of}, {Elem: keyexpr.Elem{Key: comp.Key, Expr: comp.Of.Expr}}}
	c.judge(j, call.Command, keys, true)
	c.out.Joint = append(c.out.Joint, j)
}

// tx records a transaction's joint use: its watched keys and one key per
// queued command, the keys txslot relates.
func (c *collector) tx(tx *redisapi.Tx) {
	keys := slotcheck.Expand(c.x, tx.SlotKeys())
	if len(keys) < 2 {
		return
	}
	j := &JointUse{Kind: JointTransaction, What: "MULTI/EXEC", Method: tx.Method, Site: c.site(tx.Node)}
	if tx.Watch {
		j.Kind, j.What = JointWatch, "WATCH"
	}
	j.within = append(j.within, span{tx.Node.Pos(), tx.Node.End()})
	for _, call := range tx.Calls {
		j.within = append(j.within, span{call.Node.Pos(), call.Node.End()})
	}
	for _, k := range keys {
		if k.Expr != nil {
			j.within = append(j.within, span{k.Expr.Pos(), k.Expr.End()})
		}
	}
	complete := tx.WatchComplete || !tx.Watch
	for _, call := range tx.Calls {
		complete = complete && call.Complete
	}
	c.judge(j, tx.Method+" transaction", keys, complete)
	if runs := tx.SlotKeyRuns(); len(runs) > 1 {
		// As txslot: commands that no run queues together (the two
		// branches of an if) are not related; the worst run decides.
		j.Verdict, j.Reason = c.verdict(tx.Method+" transaction", nil, complete)
		for _, run := range runs {
			if keys := slotcheck.Expand(c.x, run); len(keys) > 1 {
				if v, why := c.verdict(tx.Method+" transaction", keys, complete); worse(j.Verdict, v) != j.Verdict {
					j.Verdict, j.Reason = v, why
				}
			}
		}
	}
	c.out.Joint = append(c.out.Joint, j)
}

// judge sets the use's families and verdict from slotcheck.Relate, the
// relation the rules report from.
func (c *collector) judge(j *JointUse, what string, keys []slotcheck.Key, complete bool) {
	j.Families = []string{}
	seen := map[string]bool{}
	var named []slotcheck.Key
	var names []string
	for _, k := range keys {
		name, ok := c.family(k.Key)
		if !ok {
			j.Unresolved++
			continue
		}
		named = append(named, k)
		names = append(names, name)
		if !seen[name] {
			seen[name] = true
			j.Families = append(j.Families, name)
		}
	}
	if !complete {
		j.Unresolved++
	}
	j.common, j.commonLabel = commonHole(named, names)
	if len(keys) < 2 {
		j.Verdict, j.Reason = Unknown, what+" keys cannot all be resolved statically"
		return
	}
	j.Verdict, j.Reason = c.verdict(what, keys, complete)
}

// verdict relates keys as the rules do. With no keys it is what nothing
// to relate says: the same slot, unless some keys were not resolved.
func (c *collector) verdict(what string, keys []slotcheck.Key, complete bool) (Verdict, string) {
	kind, opaque, msg := slot.SameSlot, false, ""
	if len(keys) > 1 {
		o := slotcheck.Relate(what, keys, c.opts)
		kind, opaque, msg = o.Kind, o.Opaque, o.Message
	}
	switch {
	case kind == slot.SameSlot && complete:
		return SameSlot, ""
	case kind == slot.SameSlot || opaque:
		return Unknown, what + " keys include values built elsewhere or not followed, so their slots are not known here"
	default:
		return CrossSlot, msg
	}
}

// commonHole finds the hole every key holds (by identity), and for each
// family the index of that hole among the family's holes: the entity the
// keys would share a tag on.
func commonHole(keys []slotcheck.Key, names []string) (map[string]int, string) {
	if len(keys) < 2 {
		return nil, ""
	}
	for _, h := range keys[0].Key.Holes() {
		idx := map[string]int{}
		all := true
		for i, k := range keys {
			n := holeIndex(k.Key, h)
			if n < 0 {
				all = false
				break
			}
			if _, ok := idx[names[i]]; !ok {
				idx[names[i]] = n
			}
		}
		if all {
			return idx, h.Label
		}
	}
	return nil, ""
}

func holeIndex(k slot.Key, h slot.Hole) int {
	for i, o := range k.Holes() {
		if o.ID == h.ID {
			return i
		}
	}
	return -1
}

// withTagOn writes k's pattern with its braces removed and the hole at
// index hole (among its holes) as the tag.
func withTagOn(k slot.Key, hole int) string {
	var b strings.Builder
	n := 0
	for _, p := range k.Parts() {
		if p.Hole == nil {
			b.WriteString(strings.NewReplacer("{", "", "}", "").Replace(p.Lit))
			continue
		}
		if n == hole {
			b.WriteString("{<" + p.Hole.Label + ">}")
		} else {
			b.WriteString("<" + p.Hole.Label + ">")
		}
		n++
	}
	return b.String()
}

// tagOf says what the key's tag is made of, from the key model's analysis
// of where Redis finds the tag.
func tagOf(k slot.Key, opts slot.Options) (TagKind, string) {
	a := slot.Analyze(k, opts)
	switch a.Kind {
	case slot.TagLiteral:
		return ConstantTag, "{" + pattern(a.Tag) + "}"
	case slot.TagSymbolic:
		return EntityTag, "{" + pattern(a.Tag) + "}"
	case slot.TagNone:
		return NoTag, ""
	}
	return UnknownTag, ""
}
