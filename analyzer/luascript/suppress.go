package luascript

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// luaReporter reports the Lua checker's findings under their LUA rule IDs.
// Those IDs are not Go rules, so the shared reporter does not know them:
// they are switched on and off together as SL1202, and silenced at the Go
// line with "//slotlint:ignore LUA201 reason" (or inside the script with
// "-- slotlint:ignore", which the Lua checker honours itself).
type luaReporter struct {
	pass      *analysis.Pass
	enabled   bool
	ignores   map[lineKey][]string
	generated map[string]bool
	seen      map[string]bool
}

type lineKey struct {
	file string
	line int
}

const directive = "//slotlint:ignore"

func newLuaReporter(pass *analysis.Pass, enabled bool) *luaReporter {
	r := &luaReporter{pass: pass, enabled: enabled, ignores: map[lineKey][]string{}, generated: map[string]bool{}, seen: map[string]bool{}}
	if !enabled {
		return r
	}
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if ast.IsGenerated(f) {
			r.generated[name] = true
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, directive)
				if !ok || text == "" || text[0] != ' ' && text[0] != '\t' {
					continue
				}
				if i := strings.Index(text, "//"); i >= 0 {
					text = text[:i]
				}
				fields := strings.Fields(text)
				if len(fields) == 0 {
					continue
				}
				for _, id := range strings.Split(fields[0], ",") {
					id = strings.ToUpper(id)
					if !strings.HasPrefix(id, "LUA") {
						continue
					}
					if len(fields) == 1 {
						pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: id,
							Message: fmt.Sprintf("slotlint:ignore %s needs a reason after the rule ID", id)})
						continue
					}
					k := lineKey{name, pass.Fset.Position(c.Pos()).Line}
					r.ignores[k] = append(r.ignores[k], id)
				}
			}
		}
	}
	return r
}

func (r *luaReporter) report(id string, pos, end token.Pos, msg string) {
	if !r.enabled || !pos.IsValid() {
		return
	}
	p := r.pass.Fset.Position(pos)
	if r.generated[p.Filename] {
		return
	}
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, x := range r.ignores[lineKey{p.Filename, line}] {
			if x == id {
				return
			}
		}
	}
	key := fmt.Sprintf("%s:%d:%s", id, pos, msg)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: id, Message: msg})
}
