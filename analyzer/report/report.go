// Package report is the one way slotlint rules report: Category is the rule
// ID, disabled rules and generated files are filtered, and
// "//slotlint:ignore ID reason" comments on the line or the line above
// suppress a finding. A directive without a reason suppresses nothing and is
// itself reported, under the rule it names. The comments are read once per
// package, by directives.Analyzer, which every rule analyzer requires.
package report

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/internal/directives"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/ruleurl"
)

// Reporter reports one analyzer's findings for one package.
type Reporter struct {
	pass *analysis.Pass
	cfg  *config.Config
	dir  *directives.Result
	seen map[string]bool
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
// LUA rule with it). The calling analyzer requires directives.Analyzer.
func New(pass *analysis.Pass, cfg *config.Config, ids ...string) *Reporter {
	r := &Reporter{pass: pass, cfg: cfg, dir: pass.ResultOf[directives.Analyzer].(*directives.Result), seen: map[string]bool{}}
	mine := map[string]bool{}
	for _, id := range ids {
		mine[id] = true
	}
	isMine := func(id string) bool { return mine[id] || mine[luaUmbrella] && governing(id) == luaUmbrella }
	for _, m := range r.dir.Malformed() {
		for _, id := range m.IDs {
			if isMine(id) && cfg.Enabled(id) {
				pass.Report(analysis.Diagnostic{Pos: m.Comment.Pos(), End: m.Comment.End(), Category: id, URL: ruleurl.For(id),
					Message: fmt.Sprintf("slotlint:ignore %s needs a reason after the rule ID", id)})
			}
		}
	}
	return r
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
	if r.dir.Generated(node.Pos()) || r.dir.Suppressed(id, node.Pos()) {
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
