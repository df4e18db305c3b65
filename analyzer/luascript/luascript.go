package luascript

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/callers"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
	"github.com/slotlint/slotlint/analyzer/report"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/slot"
)

// Analyzer reports SL1201 and, under SL1202, the Lua checker's findings.
var Analyzer = &analysis.Analyzer{
	Name:     "luascript",
	Doc:      analyzerdoc.MustExtract(doc, "luascript"),
	Run:      run,
	Requires: []*analysis.Analyzer{config.Analyzer, directives.Analyzer, redisapi.Analyzer, ScriptFacts},
	URL:      "https://pkg.go.dev/github.com/slotlint/slotlint/analyzer/luascript",
	// The Result tells other rules which script calls run a script whose
	// text is known and that touches no key.
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

// Result is what the analyzer learned about the package's script calls.
type Result struct {
	keyless map[*ast.CallExpr]bool
}

// TouchesNoKey reports whether the script a call runs is known and reads
// no KEYS and runs no command that may take a key (a script that only
// computes, or a function that only returns): routed to any master, it
// behaves the same. False when the script's text is not known.
func (r *Result) TouchesNoKey(call *ast.CallExpr) bool {
	return r != nil && r.keyless[call]
}

// cache holds the checker's results by script text and options, across
// packages: a script embedded or copied into several packages is analysed
// once.
var cache luacheck.Cache

// site is one call of a script whose text is known.
type site struct {
	call     *redisapi.Call
	script   *script
	function string // FCALL: the function called
	readOnly bool
	args     []ast.Expr // ARGV, when each is known
	argsOK   bool
}

type checker struct {
	pass *analysis.Pass
	cfg  *config.Config
	x    *keyexpr.Extractor
	rep  *report.Reporter
	res  *resolver
	// functions maps a registered function's name to its library.
	functions map[string]*script
	// callers indexes the package's functions and their calls, built when
	// a script key depends on a helper's parameters.
	callers *callers.Index
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	calls := pass.ResultOf[redisapi.Analyzer].(*redisapi.Result)
	out := &Result{keyless: map[*ast.CallExpr]bool{}}
	if !redisapi.ImportsClient(pass.Pkg) || !cfg.Enabled(rules.ScriptKeyCount) && !cfg.Enabled(rules.LuaInGo) && !cfg.Enabled(rules.NoScriptKeys) {
		return out, nil
	}
	// Only packages that create, load or run a script pay for the index of
	// constants and variables the scripts' text is looked up in.
	defs := calls.ScriptDefs()
	hasScriptCall := false
	for _, call := range calls.Calls {
		hasScriptCall = hasScriptCall || call.Script
	}
	if len(defs) == 0 && !hasScriptCall {
		return out, nil
	}
	c := &checker{pass: pass, cfg: cfg, x: calls.Keys, rep: report.New(pass, cfg, rules.ScriptKeyCount, rules.LuaInGo),
		res: newResolver(pass), functions: map[string]*script{}}
	c.res.imported = pass.ResultOf[ScriptFacts].(*importedScripts)

	// Scripts created or loaded anywhere in the package, called or not.
	for _, d := range defs {
		if s := c.res.text(d.Text); s != nil && d.Library {
			s.library = true
		}
	}

	var sites []*site
	for _, call := range calls.Calls {
		ss := c.sites(call)
		if len(ss) == 0 {
			ss = c.runnerSites(call)
		}
		sites = append(sites, ss...)
	}
	for _, s := range c.res.order {
		c.analyze(s)
	}
	for _, st := range sites {
		if st.function == "" {
			st.script.calls++
		} else if lib := c.functions[st.function]; lib != nil {
			lib.calledFns[st.function] = true
		}
	}
	for _, s := range c.res.order {
		c.reportScript(s)
	}
	touches := map[*ast.CallExpr]bool{}
	for _, st := range sites {
		c.checkSite(st)
		if c.touchesNoKey(st) {
			out.keyless[st.call.Node] = true
		} else {
			touches[st.call.Node] = true
		}
	}
	// A call that may run one of several scripts touches no key only if
	// none of them does.
	for n := range touches {
		delete(out.keyless, n)
	}
	return out, nil
}

// callWord finds a call of a function named call or pcall in Lua text;
// compiled on first use, not when the binary starts.
var callWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bp?call\b`) })

// touchesNoKey reports whether the script (or function) a site runs is
// known and runs only commands without keys; a plain script must also
// read no KEYS. A script in which the checker found no command must not
// name call or pcall either, so a command reached in a way the checker
// does not follow still counts.
func (c *checker) touchesNoKey(st *site) bool {
	s := st.script
	if st.function != "" {
		s = c.functions[st.function]
	}
	if s == nil || s.err != "" || s.result == nil || !s.result.Checked {
		return false
	}
	r := s.result
	for _, k := range r.Keys {
		if k.Function == st.function {
			return false
		}
	}
	use := r.Commands[st.function]
	if use.MayKeys {
		return false
	}
	if st.function != "" {
		return true
	}
	return r.MaxKeysIndex == 0 && !r.DynamicKeys && (use.Calls > 0 || !callWord().Match(s.src))
}

func (c *checker) analyze(s *script) {
	if s.err != "" || s.result != nil {
		return
	}
	s.result = cache.Analyze(s.src, s.options())
	if s.library {
		s.calledFns = map[string]bool{}
		for _, f := range s.result.Functions {
			c.functions[f.Name] = s
		}
	}
}

// options are how a script is checked on its own: as a library when it is
// loaded as one or reads like one, with the number of keys unknown.
func (s *script) options() luacheck.Options {
	return luacheck.Options{Filename: s.embedded, Function: s.library || luacheck.IsLibrary(s.src)}
}

// sites resolves the script a call runs: one site, or one per script a
// variable may hold.
func (c *checker) sites(call *redisapi.Call) []*site {
	st := c.site(call)
	if st == nil {
		return nil
	}
	if st.script != nil || st.function != "" {
		return []*site{st}
	}
	if !call.ScriptValue {
		return nil
	}
	var out []*site
	for _, s := range c.res.scriptCandidates(call.Source) {
		cp := *st
		cp.script = s
		out = append(out, &cp)
	}
	return out
}

// site resolves the script a call runs; its script is nil when the call
// runs a variable given several scripts.
func (c *checker) site(call *redisapi.Call) *site {
	if !call.Script || call.Source == nil {
		return nil
	}
	st := &site{call: call, readOnly: strings.HasSuffix(call.Command, "_RO")}
	switch {
	case call.ScriptValue:
		st.script = c.res.scriptValue(call.Source)
	case call.Command == "EVAL" || call.Command == "EVAL_RO":
		st.script = c.res.text(call.Source)
	case call.Command == "FCALL" || call.Command == "FCALL_RO":
		tv := c.pass.TypesInfo.Types[call.Source]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return nil
		}
		st.function = constant.StringVal(tv.Value)
	}
	if call.ArgvKnown {
		st.args, st.argsOK = call.Argv, true
	}
	return st
}

// reportScript reports the checker's findings in the script's text, except
// those about keys that its call sites in the package can judge better.
func (c *checker) reportScript(s *script) {
	if s.err != "" {
		if s.embedded == "" {
			c.rep.Report(rules.LuaInGo, s.anchor, nil, "script cannot be checked: %s", s.err)
		} else {
			c.rep.Report(rules.LuaInGo, s.anchor, nil, "embedded script %s cannot be checked: %s", s.embedded, s.err)
		}
		return
	}
	if s.imported {
		return // reported in the package that holds the script
	}
	for _, f := range s.result.Findings {
		if deferred(f) && (s.calls > 0 || s.library && c.calledFunction(s, f.Function)) {
			continue
		}
		pos, end := s.position(c.pass.Fset, f.Pos)
		msg := f.Message
		if s.embedded != "" {
			msg = fmt.Sprintf("%s:%d: %s", s.embedded, f.Pos.Line, msg)
			if f.Pos.Column > 0 {
				msg = fmt.Sprintf("%s:%d:%d: %s", s.embedded, f.Pos.Line, f.Pos.Column, f.Message)
			}
		}
		c.rep.Report(f.Rule, span{pos, end}, nil, "%s", msg)
	}
}

// deferred: key findings that depend on what a caller passes in KEYS and ARGV.
func deferred(f luacheck.Finding) bool {
	return f.HasKey && (f.Rule == luacheck.RuleDerivedKey || f.Rule == luacheck.RuleUndeclaredKey)
}

// calledFunction reports whether some FCALL of the package names fn of the
// library s.
func (c *checker) calledFunction(s *script, fn string) bool {
	return fn != "" && s.calledFns[fn]
}

func (c *checker) checkSite(st *site) {
	s := st.script
	if st.function != "" {
		s = c.functions[st.function]
		if s == nil {
			return
		}
	}
	if s.err != "" || s.result == nil || !s.result.Checked {
		return
	}
	call := st.call
	where := s.where
	n, known := keyCount(call)

	// SL1201: KEYS read beyond those passed, or keys passed and never read.
	// A script that reads #KEYS, or KEYS as a whole, may treat the last
	// keys as optional: its reads are not judged against the count.
	if known && n > 0 && !s.result.DynamicKeys {
		if st.function != "" {
			opts := s.options()
			opts.NumKeys, opts.KeysKnown = n, true
			r := cache.Analyze(s.src, opts)
			for _, f := range r.Findings {
				if f.Rule == luacheck.RuleKeysIndex && f.Function == st.function {
					c.rep.Report(rules.ScriptKeyCount, call.Node, nil, "%s passes %d %s but function %s reads KEYS[%d] (%s): it is nil there",
						call.Method, n, plural(n, "key"), st.function, f.KeysIndex, where(f.Pos))
					break
				}
			}
		} else if m := s.result.MaxKeysIndex; m > n {
			at := ""
			if p, ok := s.keysReadAt(m); ok {
				at = " (" + where(p) + ")"
			}
			c.rep.Report(rules.ScriptKeyCount, call.Node, nil, "%s passes %d %s but the script reads KEYS[%d]%s: it is nil there",
				call.Method, n, plural(n, "key"), m, at)
		} else if unread := unreadKeys(s.result.KeysRead, n); len(unread) > 0 {
			c.rep.Report(rules.ScriptKeyCount, call.Node, nil, "%s passes %d %s but the script never reads %s: a key it does not use still decides where the call is routed",
				call.Method, n, plural(n, "key"), strings.Join(unread, ", "))
		}
	}

	// Read-only calls: write commands the script would run.
	if st.readOnly {
		opts := s.options()
		opts.ReadOnly = true
		r := cache.Analyze(s.src, opts)
		for _, f := range r.Findings {
			if f.Rule == luacheck.RuleWriteInReadOnly && (st.function == "" || f.Function == st.function) && !hasFinding(s.result, f) {
				c.rep.Report(f.Rule, call.Node, nil, "%s", fmt.Sprintf("%s: %s", where(f.Pos), f.Message))
			}
		}
	}

	// Keys the script derives from KEYS and ARGV, judged with what this
	// call passes (with no keys passed, as the script alone).
	bound := c.bindings(call, st)
	for _, f := range s.result.Findings {
		if !deferred(f) || st.function != "" && f.Function != st.function {
			continue
		}
		c.judge(st, s, f, bound)
	}
}

// judge reports a key a script builds from what the caller passed unless,
// with this call's keys and arguments, it provably shares the slot of the
// KEYS it derives from (KEYS[1] for keys from elsewhere).
func (c *checker) judge(st *site, s *script, f luacheck.Finding, bound map[slot.HoleID]keyexpr.Elem) {
	anchorIdx := f.KeysIndex
	if anchorIdx == 0 {
		anchorIdx = 1
	}
	anchorID := luacheck.KeysHole(anchorIdx)
	anchor, ok := bound[anchorID]
	if !ok {
		c.rep.Report(f.Rule, st.call.Node, nil, "%s", fmt.Sprintf("%s: %s", s.where(f.Pos), f.Message))
		return
	}
	anchorLabel, anchorUsed := fmt.Sprintf("KEYS[%d]", anchorIdx), false
	var used []string
	key := f.Key.Substitute(func(h slot.Hole) (slot.Key, bool) {
		el, ok := bound[h.ID]
		if ok {
			used = append(used, fmt.Sprintf("%s = %s", h.Label, types.ExprString(el.Expr)))
			if h.ID == anchorID {
				anchorLabel, anchorUsed = h.Label, true
			}
		}
		return el.Key, ok
	})
	rel := slot.Relate(key, anchor.Key, c.cfg.Slot)
	if rel.Kind == slot.SameSlot {
		return
	}
	at, quiet := c.judgeFurther(st, key, anchor)
	if quiet {
		return
	}
	detail := "shares no hash tag with " + anchorLabel
	if anchor.Key.OnlyHoles() {
		// A key passed in whole: whoever built it decides its tag.
		detail = fmt.Sprintf("shares the slot of %s only if %s carries a hash tag, which nothing here shows", anchorLabel, types.ExprString(anchor.Expr))
	}
	if rel.Kind == slot.DifferentSlots {
		detail = fmt.Sprintf("is in slot %d, %s in slot %d", rel.SlotA, anchorLabel, rel.SlotB)
	}
	if len(used) == 0 {
		c.rep.Report(f.Rule, st.call.Node, nil, "%s", fmt.Sprintf("%s (%s); here %s is %s and the key %s%s",
			f.Message, s.where(f.Pos), anchorLabel, types.ExprString(anchor.Expr), detail, at))
		return
	}
	if !anchorUsed {
		used = append(used, fmt.Sprintf("%s = %s", anchorLabel, types.ExprString(anchor.Expr)))
	}
	what := "key"
	if f.Command != "" {
		what = f.Command + " key"
	}
	c.rep.Report(f.Rule, st.call.Node, nil, "%s", fmt.Sprintf(
		"script %s %s (%s) is %s with this call's %s: it %s%s (cross-slot or non-local key error on a cluster)",
		what, f.Key.Format(" .. "), s.where(f.Pos), key, strings.Join(used, ", "), detail, at))
}

// bindings maps the holes KEYS[i] and ARGV[i] to what the call passes
// there, when that is known exactly.
func (c *checker) bindings(call *redisapi.Call, st *site) map[slot.HoleID]keyexpr.Elem {
	out := map[slot.HoleID]keyexpr.Elem{}
	if !call.Complete {
		return out
	}
	for i, el := range call.Keys {
		if el.Loop != nil {
			return map[slot.HoleID]keyexpr.Elem{}
		}
		out[luacheck.KeysHole(i+1)] = el
	}
	if st.argsOK {
		for i, a := range st.args {
			if tv := c.pass.TypesInfo.Types[a]; tv.Type != nil && astutil.IsString(tv.Type) {
				out[luacheck.ArgvHole(i+1)] = keyexpr.Elem{Key: c.x.Key(a), Expr: a}
			}
		}
	}
	return out
}

// keyCount is the number of keys a call passes, when known.
func keyCount(call *redisapi.Call) (int, bool) {
	if !call.Complete {
		return 0, false
	}
	for _, el := range call.Keys {
		if el.Loop != nil {
			return 0, false
		}
	}
	return len(call.Keys), true
}

// unreadKeys lists KEYS[i], i <= n, that the script never reads.
func unreadKeys(read []int, n int) []string {
	seen := map[int]bool{}
	for _, i := range read {
		seen[i] = true
	}
	var out []string
	for i := 1; i <= n; i++ {
		if !seen[i] {
			out = append(out, fmt.Sprintf("KEYS[%d]", i))
		}
	}
	return out
}

func hasFinding(r *luacheck.Result, f luacheck.Finding) bool {
	for _, g := range r.Findings {
		if g.Rule == f.Rule && g.Pos == f.Pos {
			return true
		}
	}
	return false
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// where names a position in the script for a message: the embedded file,
// or the Lua line.
func (s *script) where(p luacheck.Position) string {
	if s.imported {
		return fmt.Sprintf("%s, Lua line %d", s.origin, p.Line)
	}
	if s.embedded != "" {
		return fmt.Sprintf("%s:%d", s.embedded, p.Line)
	}
	return fmt.Sprintf("Lua line %d", p.Line)
}

// keysReadAt is where the script reads KEYS[n]: the first command key
// argument built from it, else the script's start.
func (s *script) keysReadAt(n int) (luacheck.Position, bool) {
	id := luacheck.KeysHole(n)
	var ps []luacheck.Position
	for _, k := range s.result.Keys {
		for _, h := range k.Key.Holes() {
			if h.ID == id {
				ps = append(ps, k.Pos)
			}
		}
	}
	if len(ps) == 0 {
		return luacheck.Position{}, false
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps[0], true
}

// span is a source range of a finding inside a script's Go text.
type span struct{ pos, end token.Pos }

func (s span) Pos() token.Pos { return s.pos }
func (s span) End() token.Pos { return s.end }
