// Package report is the one way slotlint rules report: Category is the rule
// ID, disabled rules and generated files are filtered, and
// "//slotlint:ignore ID reason" comments on the line or the line above
// suppress a finding. A directive without a reason suppresses nothing and is
// itself reported, under the rule it names.
package report

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/ruleurl"
)

const directive = "//slotlint:ignore"

// lineKey identifies one line of one file.
type lineKey struct {
	file string
	line int
}

type ignore struct {
	ids    []string
	reason string
	pos    token.Pos
}

// Reporter reports one analyzer's findings for one package.
type Reporter struct {
	pass      *analysis.Pass
	cfg       *config.Config
	ignores   map[lineKey][]ignore
	generated map[string]bool
	seen      map[string]bool
}

// luaUmbrella is the Go rule under which findings of the Lua checker inside
// scripts held in Go code are reported: each keeps its own LUA ID as
// Category and is switched on and off with SL1202.
const luaUmbrella = rules.LuaInGo

// governing returns the Go rule that decides whether id is reported: id
// itself, or SL1202 for a Lua rule.
func governing(id string) string {
	if strings.HasPrefix(id, "LUA") {
		return luaUmbrella
	}
	return id
}

// New prepares a reporter and reports malformed directives that name one of
// the rules in ids (the rules of the calling analyzer; SL1202 brings every
// LUA rule with it).
func New(pass *analysis.Pass, cfg *config.Config, ids ...string) *Reporter {
	r := &Reporter{pass: pass, cfg: cfg, ignores: map[lineKey][]ignore{}, generated: map[string]bool{}, seen: map[string]bool{}}
	mine := map[string]bool{}
	for _, id := range ids {
		mine[id] = true
	}
	isMine := func(id string) bool { return mine[id] || mine[luaUmbrella] && governing(id) == luaUmbrella }
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if ast.IsGenerated(f) {
			r.generated[name] = true
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				ig, ok := parse(c)
				if !ok {
					continue
				}
				if ig.reason == "" {
					for _, id := range ig.ids {
						if isMine(id) && cfg.Enabled(id) {
							pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: id, URL: ruleurl.For(id),
								Message: fmt.Sprintf("slotlint:ignore %s needs a reason after the rule ID", id)})
						}
					}
					continue
				}
				line := pass.Fset.Position(c.Pos()).Line
				k := lineKey{name, line}
				r.ignores[k] = append(r.ignores[k], ig)
			}
		}
	}
	return r
}

// parse reads "//slotlint:ignore SL1002[,SL1003] reason...".
func parse(c *ast.Comment) (ignore, bool) {
	text, ok := strings.CutPrefix(c.Text, directive)
	if !ok || (text != "" && text[0] != ' ' && text[0] != '\t') {
		return ignore{}, false
	}
	// A comment after the directive is not its reason.
	if i := strings.Index(text, "//"); i >= 0 {
		text = text[:i]
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return ignore{}, false
	}
	var ids []string
	for _, id := range strings.Split(fields[0], ",") {
		if id != "" {
			ids = append(ids, strings.ToUpper(id))
		}
	}
	return ignore{ids: ids, reason: strings.Join(fields[1:], " "), pos: c.Pos()}, true
}

func (r *Reporter) suppressed(id string, pos token.Pos) bool {
	p := r.pass.Fset.Position(pos)
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, ig := range r.ignores[lineKey{p.Filename, line}] {
			for _, x := range ig.ids {
				if x == id {
					return true
				}
			}
		}
	}
	return false
}

// Report reports a finding of rule id over node, unless it is disabled,
// suppressed, in a generated file, or already reported at that place. id is
// a Go rule, or a LUA rule for a finding inside a script held in Go code.
func (r *Reporter) Report(id string, node analysis.Range, fixes []analysis.SuggestedFix, format string, args ...any) {
	if _, ok := rules.Lookup(governing(id)); !ok {
		panic("report: unknown rule " + id) // a programming error in slotlint, never user input
	}
	if !r.cfg.Enabled(id) || !node.Pos().IsValid() {
		return
	}
	p := r.pass.Fset.Position(node.Pos())
	if r.generated[p.Filename] || r.suppressed(id, node.Pos()) {
		return
	}
	msg := fmt.Sprintf(format, args...)
	key := fmt.Sprintf("%s:%d:%s", id, node.Pos(), msg)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.pass.Report(analysis.Diagnostic{Pos: node.Pos(), End: node.End(), Category: id, URL: ruleurl.For(id), Message: msg, SuggestedFixes: fixes})
}

// Enabled reports whether any of ids is enabled, so a rule family can skip
// its work entirely.
func (r *Reporter) Enabled(ids ...string) bool {
	for _, id := range ids {
		if r.cfg.Enabled(id) {
			return true
		}
	}
	return false
}
